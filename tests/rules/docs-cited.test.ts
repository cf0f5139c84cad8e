/**
 * The documents the code cites live in the repository (issue 16 item 8): every rule id the code cites (S-n, R-n,
 * D-n) is an anchor of docs/rules.md, every `docs/…md#anchor` link points at an anchor that exists, and the
 * sections the code cites (`docs/rules.md §3.13`) are headings there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['shared', 'server', 'web/src', 'overlay/src', 'tests', 'bench', 'scripts'];
const SOURCE = /\.(ts|svelte|mjs)$/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(path);
    return SOURCE.test(name) ? [path] : [];
  });
}

const docs = { 'docs/rules.md': readFileSync('docs/rules.md', 'utf8'), 'docs/case-format.md': readFileSync('docs/case-format.md', 'utf8') };
/** Anchors of a markdown file: explicit `<a id>` and the slugs of its headings (as GitHub makes them). */
function anchors(md: string): Set<string> {
  const out = new Set([...md.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!));
  for (const m of md.matchAll(/^#{1,6} (.+)$/gm))
    out.add(
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} -]/gu, '')
        .replace(/ /g, '-'),
    );
  return out;
}
const files = ROOTS.flatMap((r) => sources(r)).map((path) => ({ path, text: readFileSync(path, 'utf8') }));

describe('the rules the code cites are in docs/rules.md', () => {
  const ruleAnchors = anchors(docs['docs/rules.md']);

  it('every S-n, R-n and D-n cited in the code is an anchor of docs/rules.md', () => {
    const missing = new Set<string>();
    let cited = 0;
    for (const { path, text } of files) {
      if (path.endsWith('docs-cited.test.ts')) continue;
      for (const m of text.matchAll(/(?<![\w-])([SRD])-(\d+)([ab]?)(?![\w-])/g)) {
        cited++;
        const id = `${m[1]!.toLowerCase()}-${m[2]}`;
        const withLetter = id + m[3];
        if (!ruleAnchors.has(withLetter) && !ruleAnchors.has(id)) missing.add(`${path}: ${m[0]}`);
      }
    }
    expect(cited).toBeGreaterThan(200);
    expect([...missing]).toEqual([]);
  });

  it('every decision D-1…D-32 has its reason, and every rule S-1…S-21, R-1…R-13 is there', () => {
    for (let i = 1; i <= 32; i++) expect(docs['docs/rules.md'], `D-${i}`).toMatch(new RegExp(`<a id="d-${i}"></a>\\*\\*D-${i} [^]*?\\*Why:\\*`));
    for (let i = 1; i <= 21; i++) expect(ruleAnchors.has(`s-${i}`), `S-${i}`).toBe(true);
    for (let i = 1; i <= 13; i++) expect(ruleAnchors.has(`r-${i}`), `R-${i}`).toBe(true);
  });

  it('every docs/…md#anchor link and every cited section of docs/rules.md exists', () => {
    const bad: string[] = [];
    const all = [...files, { path: 'README.md', text: readFileSync('README.md', 'utf8') }, ...Object.entries(docs).map(([path, text]) => ({ path, text }))];
    for (const { path, text } of all) {
      for (const m of text.matchAll(/(docs\/(?:rules|case-format)\.md|\b(?:rules|case-format)\.md|\(\s*)#([\w-]+)/g)) {
        const target = m[1]!.includes('case-format') ? 'docs/case-format.md' : m[1]!.includes('rules') ? 'docs/rules.md' : path;
        const md = docs[target as keyof typeof docs];
        if (md && !anchors(md).has(m[2]!)) bad.push(`${path}: ${m[0]}`);
      }
      for (const m of text.matchAll(/docs\/rules\.md §(\d+(?:\.\d+)?)/g)) {
        const heading = new RegExp(`^#{2,3} ${m[1]!.replace('.', '\\.')}[. ]`, 'm');
        if (!heading.test(docs['docs/rules.md'])) bad.push(`${path}: ${m[0]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
