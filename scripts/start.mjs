/**
 * `npm start`: build the web app if needed, then run the server (embedded mode unless REDIS_URL is set)
 * and print the launcher URL once it listens (the server says so over an IPC channel), or that it did not
 * start. Environment: see server/main.ts and the configuration table of docs/operators.md.
 * SIGINT / SIGTERM are passed to the server (graceful shutdown); under npm, npm exiting stops it too.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * What is missing from node_modules for `npm start` (the packages it runs and builds with, and better-sqlite3's
 * native binding, which npm builds only when its install script is allowed), as one line per problem; empty when
 * all is there.
 */
function missingPackages() {
  const require = createRequire(join(ROOT, 'package.json'));
  const problems = [];
  for (const name of ['tsx', 'vite', 'svelte', '@sveltejs/vite-plugin-svelte', 'express', 'socket.io', 'better-sqlite3']) {
    try {
      require.resolve(name);
    } catch {
      problems.push(`${name} is not installed`);
    }
  }
  if (!problems.some((p) => p.startsWith('better-sqlite3'))) {
    try {
      const Database = require('better-sqlite3');
      new Database(':memory:').close();
    } catch (err) {
      problems.push(`better-sqlite3's native binding does not load (${String(err.message).split('\n')[0]})`);
    }
  }
  return problems;
}

const missing = missingPackages();
if (missing.length > 0) {
  console.error(`cuecast: node_modules is incomplete: ${missing.join('; ')}.`);
  console.error('cuecast: run `npm ci` in this folder first (it builds better-sqlite3; see the README), then `npm start`.');
  process.exit(1);
}
const { ensureBuilt } = await import('./pages-build.mjs');
mkdirSync(join(ROOT, 'node_modules'), { recursive: true });
const t0 = Date.now();
if (await ensureBuilt()) console.log(`cuecast: built the web app in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const port = process.env.PORT || '3000';
const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
  cwd: ROOT,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, DATA_DIR: process.env.DATA_DIR || join(ROOT, 'data') },
});
const mode = process.env.REDIS_CLUSTER_URLS
  ? `Redis Cluster mode (${process.env.REDIS_CLUSTER_URLS})`
  : process.env.REDIS_URL
    ? `Redis mode (${process.env.REDIS_URL})`
    : 'embedded mode (data in DATA_DIR, default ./data)';
console.log(`cuecast: ${mode}, starting on port ${port}…`);
// The launcher URL only once the server listens (it says so over IPC); a server that cannot start says why.
let listening = false;
child.on('message', (msg) => {
  if (!msg || typeof msg !== 'object' || !('listening' in msg) || listening) return;
  listening = true;
  console.log(`cuecast: launcher at http://localhost:${msg.listening}/  (Ctrl+C to stop)`);
  child.disconnect();
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => {
  if (!listening && !signal) console.error('cuecast: the server did not start (the reason is in the line above)');
  process.exit(code ?? (signal ? 1 : 0));
});

// Under `npm start` this script runs through `sh -c`: a SIGTERM to npm is passed to that shell, which dies
// without passing it on, so this wrapper and the server would be left running, orphaned. When the package
// manager started us, its going away (our parent changes) stops the server gracefully.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    console.log('cuecast: npm is gone; stopping the server');
    child.kill('SIGTERM');
  }, 500);
  watch.unref();
}
