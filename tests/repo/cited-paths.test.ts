/**
 * Every repository path the code's comments and the documents name exists (issue 26 §5: a comment naming a file that
 * no longer exists is the commonest stale comment). A path counts when it starts with a top-level folder of the
 * repository (`server/storage/file-store.ts`, `web/src/lib/`, `.ci/run`), ends in a file name with an extension or in
 * `/`, and holds no placeholder (`<folder>`, `*`); in code only comments are read (a path in a string is the code's
 * own business, and a sample in a test is not a citation). Inside an npm workspace (`companion/`) a path may also be
 * the workspace's own (`companion/manifest.json`). Built or generated places (dist, artifacts, node_modules) are
 * not checked. Markdown links are doc-links.test.ts's; this reads code spans and plain text.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const SKIP = new Set(['node_modules', '.git', 'dist', 'artifacts', 'coverage', 'data']);
const TEXT = /\.(ts|mts|mjs|cjs|js|svelte|md|yml|yaml|sh|json)$|^(run|Dockerfile)$/;
/** Files whose paths are samples, not citations (the link and path checks' own fixtures; the generated schema JSON). */
const SAMPLES = new Set(['tests/repo/doc-links.test.ts', 'tests/repo/cited-paths.test.ts', 'docs/api-schemas.json', 'package-lock.json']);
/** Places that exist only after a build or a run. */
const MADE = /(^|\/)(dist|artifacts|node_modules|coverage|data)(\/|$)|^web\/dist|\.db$/;

function textFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP.has(name) ? [] : textFiles(path);
    return TEXT.test(name) ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

/** The top-level folders of the repository (what a cited path may start with). */
function topFolders(): string[] {
  return readdirSync(ROOT).filter((n) => !SKIP.has(n) && statSync(join(ROOT, n)).isDirectory());
}

/** The comment part of each line of a code file (whole comment lines, and what follows ` // `); Markdown whole. */
function readable(file: string, text: string): string[] {
  if (file.endsWith('.md')) return text.split('\n');
  return text.split('\n').map((line) => {
    const t = line.trimStart();
    if (/^(\*|\/\*|\/\/|#|<!--)/.test(t)) return line;
    const at = line.search(/(^|\s)\/\/\s/);
    return at < 0 ? '' : line.slice(at);
  });
}

/**
 * The repository paths `text` (of `file`) names, with their line: `top/…/name.ext` or `top/…/` where `top` is one of
 * `tops`. A path inside a longer token (a URL, `@scope/pkg/x.js`, `../x/y.ts`, `node_modules/…`) is not one.
 */
export function citedPaths(file: string, text: string, tops: readonly string[]): { path: string; line: number }[] {
  const out: { path: string; line: number }[] = [];
  const top = tops.map((t) => t.replace(/[.]/g, '\\.')).join('|');
  const re = new RegExp(String.raw`(?<![\w@/.:<>*-])((?:${top})\/(?:[\w.-]+\/)*(?:[\w-]+(?:\.[\w-]+)*\.[a-z]{1,6}\b|(?=[\s\`'")\],;:]|$)))(?![\w*<>/-])`, 'g');
  readable(file, text).forEach((line, i) => {
    for (const m of line.matchAll(re)) {
      const path = m[1]!.replace(/\/$/, '');
      if (!MADE.test(path)) out.push({ path, line: i + 1 });
    }
  });
  return out;
}

/** The folder of the npm workspace `file` is in (`companion`), or null. */
function workspaceOf(file: string): string | null {
  for (let dir = dirname(file); dir !== '.' && dir !== ''; dir = dirname(dir)) if (existsSync(join(ROOT, dir, 'package.json'))) return dir;
  return null;
}

describe('paths named in comments and documents', () => {
  it('every repository path a comment or a document names exists', () => {
    const tops = topFolders();
    const files = textFiles(ROOT).filter((f) => !SAMPLES.has(f));
    const missing: string[] = [];
    let cited = 0;
    for (const file of files) {
      for (const { path, line } of citedPaths(file, readFileSync(join(ROOT, file), 'utf8'), tops)) {
        cited++;
        const ws = workspaceOf(file);
        if (!existsSync(join(ROOT, path)) && !(ws && existsSync(join(ROOT, ws, path)))) missing.push(`${file}:${line}: ${path}`);
      }
    }
    expect(cited).toBeGreaterThan(300);
    expect(missing).toEqual([]);
  });

  it('reads the paths a comment names, and not URLs, packages, placeholders, strings or what a build makes', () => {
    const tops = ['server', 'web', 'tests', 'docs', '.ci'];
    const text = [
      '/**',
      ' * the file stores (server/storage/file-store.ts, `web/src/lib/room-watch.ts`), web/src/overlay/ and .ci/run.sh;',
      ' * not https://github.com/server/x.ts, @scope/web/x.js, node_modules/web/x.js, docs/screenshots/<folder>/, web/*.ts,',
      ' * ../web/x.ts, web/dist/index.html, server/x (no extension) or artifacts/screenshots/a.png',
      ' */',
      "const sample = 'server/in-a-string.ts'; // but this one: tests/x.test.ts",
    ].join('\n');
    expect(citedPaths('web/src/lib/client.ts', text, tops)).toEqual([
      { path: 'server/storage/file-store.ts', line: 2 },
      { path: 'web/src/lib/room-watch.ts', line: 2 },
      { path: 'web/src/overlay', line: 2 },
      { path: '.ci/run.sh', line: 2 },
      { path: 'tests/x.test.ts', line: 6 },
    ]);
  });
});
