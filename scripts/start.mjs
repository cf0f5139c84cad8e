/**
 * `npm start`: build the web app if needed, then run the server (embedded mode unless REDIS_URL is set)
 * and print the launcher URL once it listens (the server says so over an IPC channel), or that it did not
 * start. Environment: see server/main.ts and the configuration table of docs/operators.md.
 * SIGINT / SIGTERM are passed to the server (graceful shutdown); under npm, npm exiting stops it too.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './pages-build.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
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
