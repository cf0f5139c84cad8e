/**
 * Build the pages (web/dist: every page but the OBS overlays; overlay/dist: the two OBS overlays) only when they
 * are missing or older than their sources.
 * Used by `npm start` and by the test suite's global setup; a lock directory makes concurrent callers
 * wait for one build instead of racing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'web');
const OVERLAY = join(ROOT, 'overlay');
/** Each build folder and the pages in it. */
const OUTPUTS = [
  [join(WEB, 'dist'), ['index', 'scorer', 'dashboard', 'watch', 'event', 'venue', 'clock', 'draw']],
  [join(OVERLAY, 'dist'), ['overlay', 'overlay-table', 'overlay-draw']],
];
const LOCK = join(ROOT, 'node_modules', '.cuecast-build.lock');
/** The builds, in order: every page but the overlays (empties web/dist/), then each OBS overlay page on its own (the first empties overlay/dist/). */
const CONFIGS = ['web/vite.config.ts', 'overlay/vite.config.ts', 'overlay/vite.table.config.ts', 'overlay/vite.draw.config.ts'];

/** Newest modification time (ms) under `path`; a file or folder that vanishes while it is walked counts as 0. */
function newest(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let entries;
  try {
    entries = readdirSync(path);
  } catch (e) {
    if (e.code === 'ENOENT') return 0;
    throw e;
  }
  let max = 0;
  for (const e of entries) if (e !== 'dist' && e !== 'node_modules') max = Math.max(max, newest(join(path, e)));
  return max;
}

/**
 * True when a build folder lacks a page (or web/dist the scorer's worker) or is older than a source: web/ and
 * overlay/ (sources, HTML entries, public/, Vite configs and plugins; not their dist/), and shared/.
 */
export function distIsStale() {
  const outputs = OUTPUTS.flatMap(([dist, pages]) => pages.map((p) => join(dist, `${p}.html`)));
  // The scorer console's service worker (web/scorer-worker-plugin.ts) is an output too.
  if (!outputs.every((p) => existsSync(p)) || !existsSync(join(WEB, 'dist', 'scorer-sw.js'))) return true;
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  const sources = Math.max(newest(WEB), newest(OVERLAY), newest(join(ROOT, 'shared')));
  return sources > built;
}

/** Run the `vite build`s for the pages (production mode). @throws when a build fails. */
export function buildPages() {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  for (const config of CONFIGS) {
    const r = spawnSync(process.execPath, [vite, 'build', '--config', config, '--logLevel', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
      // vitest sets NODE_ENV=test; Vite would then pick development builds of dependencies.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (r.status !== 0) throw new Error(`vite build --config ${config} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Take the lock directory `lock` (mkdir is atomic across processes), waiting while another process holds it.
 * A lock older than `staleMs` is taken to be left by a killed process and removed. Every step tolerates the
 * holder removing the lock at any moment (the check and the removal are not one step).
 * @returns a function that releases the lock. @throws when the lock is still held after `waitMs`, or when
 * the lock cannot be made for another reason than "it exists" (a missing parent folder, no permission).
 */
export async function acquireLock(lock, { waitMs = 180_000, staleMs = 180_000, pollMs = 250 } = {}) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock, { recursive: false });
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    const held = statSync(lock, { throwIfNoEntry: false });
    if (held && Date.now() - held.mtimeMs > staleMs) rmSync(lock, { recursive: true, force: true });
    if (!held) continue;
    if (Date.now() > deadline) throw new Error(`waited ${Math.round(waitMs / 1000)} s for the lock ${lock}`);
    await sleep(pollMs);
  }
}

/** Build web/dist and overlay/dist if stale; concurrent callers wait for the one build in progress. @returns true if it built. */
export async function ensureBuilt() {
  const release = await acquireLock(LOCK);
  try {
    if (!distIsStale()) return false;
    buildPages();
    return true;
  } finally {
    release();
  }
}
