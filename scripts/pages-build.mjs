/**
 * Build the web pages (web/dist) only when they are missing or older than their sources.
 * Used by `npm start` and by the test suite's global setup; a lock directory makes concurrent callers
 * wait for one build instead of racing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'web');
const DIST = join(WEB, 'dist');
const PAGES = ['index', 'scorer', 'overlay', 'overlay-table', 'dashboard', 'watch', 'event', 'venue', 'clock'];
const LOCK = join(ROOT, 'node_modules', '.cuecast-build.lock');
/** The builds, in order: every page but the overlays (empties dist/), then each OBS overlay page on its own. */
const CONFIGS = ['web/vite.config.ts', 'web/vite.overlay.config.ts', 'web/vite.overlay-table.config.ts'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of readdirSync(path)) max = Math.max(max, newest(join(path, e)));
  return max;
}

/** True when web/dist lacks a page (or the scorer's worker) or is older than a source (web/src, HTML entries, shared/, Vite config and plugins). */
export function distIsStale() {
  const outputs = PAGES.map((p) => join(DIST, `${p}.html`));
  // The scorer console's service worker (web/scorer-worker-plugin.ts) is an output too.
  if (!outputs.every((p) => existsSync(p)) || !existsSync(join(DIST, 'scorer-sw.js'))) return true;
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  const sources = Math.max(
    newest(join(WEB, 'src')),
    newest(join(ROOT, 'shared')),
    newest(join(WEB, 'public')),
    ...CONFIGS.map((c) => newest(join(ROOT, c))),
    newest(join(WEB, 'vite.shared.ts')),
    newest(join(WEB, 'flags-plugin.ts')),
    newest(join(WEB, 'scorer-worker-plugin.ts')),
    ...PAGES.map((p) => newest(join(WEB, `${p}.html`))),
  );
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

/** Build web/dist if stale; concurrent callers wait for the one build in progress. @returns true if it built. */
export async function ensureBuilt() {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(LOCK, { recursive: false });
    } catch {
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 180_000) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited 3 min for the page build lock ${LOCK}`);
      await sleep(250);
      continue;
    }
    try {
      if (!distIsStale()) return false;
      buildPages();
      return true;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}
