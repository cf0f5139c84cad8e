/**
 * Every relative link in the repository's Markdown files leads somewhere (issue 26 §5): the file or folder exists,
 * and an anchor (`file.md#section`, `#section`) is a heading of the target as GitHub slugs it, or an explicit
 * `<a id>` / `<a name>`. Links to other sites (`https:`, `mailto:`) are not followed. Code (fenced blocks, inline
 * code) is not read as links, and a code fence left open (which hides every heading after it) is an error.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
/** Folders that hold no document of ours: dependencies, builds, test output. */
const SKIP = new Set(['node_modules', '.git', 'dist', 'artifacts', 'coverage', 'data']);

/** Every `.md` file under `dir`, as repository-relative paths with `/`. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP.has(name) ? [] : markdownFiles(path);
    return name.endsWith('.md') ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

/** The line of a code fence that is never closed (it would swallow the rest of the page), or 0. */
function unclosedFence(md: string): number {
  let open = 0;
  let fence: string | null = null;
  md.split('\n').forEach((line, i) => {
    const mark = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence && mark?.startsWith(fence)) fence = null;
    else if (!fence && mark) [fence, open] = [mark, i + 1];
  });
  return fence ? open : 0;
}

/** The text without its fenced code blocks (their lines blank, so line numbers stay). */
function withoutFences(md: string): string {
  let fence: string | null = null;
  return md
    .split('\n')
    .map((line) => {
      const mark = /^\s*(```+|~~~+)/.exec(line)?.[1];
      if (fence) {
        if (mark?.startsWith(fence)) fence = null;
        return '';
      }
      if (mark) fence = mark;
      return mark ? '' : line;
    })
    .join('\n');
}

/** The text without code: fenced blocks and inline code spans become blanks. */
const withoutCode = (md: string) => withoutFences(md).replace(/(`+)[^`\n]*?\1/g, '');

/**
 * GitHub's anchor for a heading: its text as rendered (code, emphasis and link markup gone), lower case, every
 * character but letters, digits, `-`, `_` and spaces dropped, spaces made `-`; a repeated slug gets `-1`, `-2`…
 */
export function slugs(md: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of withoutFences(md).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '')
      .replace(/(^|\W)_+|_+(?=\W|$)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\-_ ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of md.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

/** The link targets of a Markdown text, with their line: `[t](x)`, `![a](x)`, `[r]: x`, and `href`/`src` attributes. */
export function links(md: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  withoutCode(md)
    .split('\n')
    .forEach((text, i) => {
      const add = (raw: string) =>
        out.push({
          target: raw
            .trim()
            .replace(/^<(.*)>$/, '$1')
            .replace(/\s+"[^"]*"$/, ''),
          line: i + 1,
        });
      for (const m of text.matchAll(/\]\(((?:[^()\s]|\([^()]*\))+(?:\s+"[^"]*")?)\)/g)) add(m[1]!);
      for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s+(\S+)/g)) add(m[1]!);
      for (const m of text.matchAll(/\b(?:href|src)="([^"]+)"/g)) add(m[1]!);
    });
  return out;
}

/**
 * The broken relative links of `files` (repository path → text): `path:line: target (why)`. `exists` tells whether a
 * repository path is a file or folder; `read` gives a Markdown file's text (for its anchors).
 */
export function brokenLinks(files: readonly string[], read: (path: string) => string, exists: (path: string) => boolean): string[] {
  const bad: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    if (!anchorsOf.has(path)) anchorsOf.set(path, slugs(read(path)));
    return anchorsOf.get(path)!;
  };
  for (const file of files) {
    const fence = unclosedFence(read(file));
    if (fence) bad.push(`${file}:${fence}: a code fence that is never closed`);
    for (const { target, line } of links(read(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // another site, mailto:
      const hash = target.indexOf('#');
      const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
      const resolved =
        pathPart === ''
          ? file
          : normalize(join(dirname(file), pathPart))
              .split('\\')
              .join('/')
              .replace(/\/$/, '');
      const at = `${file}:${line}: ${target}`;
      if (resolved.startsWith('..')) {
        bad.push(`${at} (outside the repository)`);
        continue;
      }
      if (!exists(resolved)) {
        bad.push(`${at} (no such file: ${resolved})`);
        continue;
      }
      if (anchor !== null && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) bad.push(`${at} (no heading or anchor #${anchor} in ${resolved})`);
    }
  }
  return bad;
}

describe('relative links and anchors in the Markdown files', () => {
  it('every relative link of every Markdown file in the repository leads to a file and an anchor that exist', () => {
    const files = markdownFiles(ROOT);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/api.md');
    const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
    const count = files.reduce((n, f) => n + links(read(f)).length, 0);
    expect(count).toBeGreaterThan(100);
    expect(brokenLinks(files, read, (path) => existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('finds a planted broken link and a planted broken anchor, and passes the good ones (in memory)', () => {
    const sample: Record<string, string> = {
      'README.md': [
        '# cuecast',
        'See [the guide](docs/guide.md), [its set-up](docs/guide.md#the-set-up-step-by-step) and [this](#cuecast).',
        'Planted: [gone](docs/missing.md) and [no such part](docs/guide.md#nowhere).',
        '![picture](docs/pic.png) [site](https://example.com/x.md#y) [mail](mailto:a@b.c)',
        '`[in code](docs/also-missing.md)`',
        '```md',
        '[in a fence](docs/fenced-missing.md)',
        '```',
      ].join('\n'),
      'docs/guide.md': [
        '# Guide',
        '## The set-up, step by step',
        '## `PUT /api/x`: the clock',
        '## Socket.IO',
        '## Socket.IO',
        '<a id="d-1"></a>',
        'Back [up](../README.md#cuecast), [down](#put-apix-the-clock), [io](#socketio-1), [d](#d-1), [bad](#socket-io), [out](../../x.md).',
        '```sh',
        'a fence left open',
      ].join('\n'),
      'docs/pic.png': '',
    };
    const bad = brokenLinks(
      ['README.md', 'docs/guide.md'],
      (p) => sample[p]!,
      (p) => p in sample || p === 'docs',
    );
    expect(bad).toEqual([
      'README.md:3: docs/missing.md (no such file: docs/missing.md)',
      'README.md:3: docs/guide.md#nowhere (no heading or anchor #nowhere in docs/guide.md)',
      'docs/guide.md:8: a code fence that is never closed',
      'docs/guide.md:7: #socket-io (no heading or anchor #socket-io in docs/guide.md)',
      'docs/guide.md:7: ../../x.md (outside the repository)',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    expect([
      ...slugs(
        '# The shot clock (server side)\n## Socket.IO\n### `{"undo": true}`\n## The rules\' version\n## 3.13 The score sheet\n## Data feed for vMix, Singular and other title tools',
      ),
    ]).toEqual([
      'the-shot-clock-server-side',
      'socketio',
      'undo-true',
      'the-rules-version',
      '313-the-score-sheet',
      'data-feed-for-vmix-singular-and-other-title-tools',
    ]);
  });
});
