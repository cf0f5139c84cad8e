/**
 * A test run never rewrites a tracked file: pictures for the docs are made on request only (`SHOTS=1`), through
 * tests/helpers/pictures.ts. This finds every test, bench or script source that names the docs' pictures folder
 * (docs/screenshots) in code outside the two helpers allowed to: pictures.ts (the on-request folder) and
 * composite.ts (reads the pool-table backdrop).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/import-graph';
import { REPO_ROOT } from '../helpers/server';

const ALLOWED = new Set(['tests/helpers/pictures.ts', 'tests/helpers/composite.ts']);
/** docs/screenshots as a path in code: the two quoted parts given to `join`, or one quoted literal starting with it. */
const DOCS_PICTURES = /['"`]docs['"`]\s*,\s*['"`]screenshots|['"`](?:\.\/)?docs\/screenshots/;

describe('pictures for the docs are made on request only', () => {
  it('no test, bench or script names docs/screenshots in code but the pictures helper (and the composite reading its backdrop)', () => {
    const offenders = ['tests', 'bench', 'scripts']
      .flatMap((d) => sourceFiles(join(REPO_ROOT, d), /\.(ts|mts|mjs|js)$/))
      .map((p) => relative(REPO_ROOT, p))
      .filter((p) => !ALLOWED.has(p) && DOCS_PICTURES.test(readFileSync(join(REPO_ROOT, p), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the pattern finds both ways of writing the path, and not a mention in a comment or a read of docs/*.md', () => {
    const q = "'";
    expect(DOCS_PICTURES.test(`page.screenshot({ path: join(REPO_ROOT, ${q}docs${q}, ${q}screenshots${q}, 'x.png') })`)).toBe(true);
    expect(DOCS_PICTURES.test(`writeFileSync(${q}docs/screenshots/x.png${q}, png)`)).toBe(true);
    expect(DOCS_PICTURES.test(' * Screenshots: docs/screenshots/shot-clock/ on request')).toBe(false);
    expect(DOCS_PICTURES.test(`readFileSync(join(REPO_ROOT, ${q}docs${q}, ${q}rules.md${q}))`)).toBe(false);
  });
});
