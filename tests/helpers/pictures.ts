/**
 * Pictures for people to look at, made on request only, so that a test run never rewrites a tracked file:
 * `SHOTS=1` writes them into docs/screenshots/<folder>/ (what the documents show), `ARTIFACTS=1` into
 * artifacts/screenshots/<folder>/ (git-ignored); without either, suites check the graphics and save none.
 * Every picture of the docs is written through `pictureDir`; tests/repo/pictures-on-request.test.ts keeps it so.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './server';

/** `SHOTS=1`: the pictures go into the docs (docs/screenshots/…). */
export const FOR_DOCS = process.env.SHOTS === '1';
/** True when pictures are wanted at all (`SHOTS=1` or `ARTIFACTS=1`). */
export const PICTURES = FOR_DOCS || process.env.ARTIFACTS === '1';

/**
 * The folder pictures of `folder` (e.g. 'shot-clock') go to, created: docs/screenshots/<folder> with `SHOTS=1`,
 * else artifacts/screenshots/<folder>. Throws when no pictures were asked for (check `PICTURES` first).
 */
export function pictureDir(folder: string): string {
  if (!PICTURES) throw new Error(`pictureDir('${folder}'): no pictures asked for (SHOTS=1 or ARTIFACTS=1)`);
  const dir = FOR_DOCS ? join(REPO_ROOT, 'docs', 'screenshots', folder) : join(REPO_ROOT, 'artifacts', 'screenshots', folder);
  mkdirSync(dir, { recursive: true });
  return dir;
}
