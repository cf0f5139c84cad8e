/**
 * Build the web pages once per test run, only when overlay/dist is missing or older than its sources.
 * Usable two ways: as a vitest `globalSetup` file (default export), and as `ensureBuilt()` from a page
 * suite's `beforeAll` (a lock directory makes concurrent suites wait for one build instead of racing).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OVERLAY = join(ROOT, 'overlay');
const DIST = join(OVERLAY, 'dist');
const LOCK = join(ROOT, 'node_modules', '.cuecast-build.lock');

function newest(path: string, skip: (p: string) => boolean = () => false): number {
  if (skip(path) || !existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of readdirSync(path)) max = Math.max(max, newest(join(path, e), skip));
  return max;
}

function oldestOutput(): number {
  const pages = ['index', 'scorer', 'overlay', 'dashboard', 'watch'].map((p) => join(DIST, `${p}.html`));
  if (!pages.every(existsSync)) return 0;
  return Math.min(...pages.map((p) => statSync(p).mtimeMs));
}

/** True when overlay/dist is missing a page or older than a source (overlay/src, the HTML entries, shared/protocol, vite config). */
export function distIsStale(): boolean {
  const built = oldestOutput();
  if (built === 0) return true;
  const sources = Math.max(
    newest(join(OVERLAY, 'src')),
    newest(join(ROOT, 'shared', 'protocol')),
    ...['index', 'scorer', 'overlay', 'dashboard', 'watch'].map((p) => newest(join(OVERLAY, `${p}.html`))),
    newest(join(OVERLAY, 'vite.config.ts')),
  );
  return sources > built;
}

function runBuild(): void {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'overlay/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    encoding: 'utf8',
    // vitest sets NODE_ENV=test; Vite would then resolve the `development` export conditions
    // (socket.io-client's debug build) and ship a bigger, chattier bundle than production.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error(`vite build failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Build overlay/dist if stale; concurrent callers wait for the one build in progress. */
export async function ensureBuilt(): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
    } catch {
      // Another suite is building: wait, then re-check (a lock older than 2 min is from a dead run).
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 120_000) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited 2 min for the page build lock ${LOCK}`);
      await sleep(250);
      continue;
    }
    try {
      if (distIsStale()) runBuild();
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

/** vitest globalSetup entry. */
export default async function setup(): Promise<void> {
  await ensureBuilt();
}
