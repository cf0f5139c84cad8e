/**
 * Child processes of the benchmarks (servers, viewers), started with tsx and an IPC channel; messages are
 * objects with a `type`, and `next(type, test)` waits for the next one that matches (earlier ones are kept).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** A child process with IPC, and a way to wait for its next message of a type. */
export class BenchChild {
  private waiters: { type: string; test: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  private backlog: any[] = [];
  constructor(readonly proc: ChildProcess) {
    proc.on('message', (m: any) => {
      const i = this.waiters.findIndex((w) => w.type === m.type && w.test(m));
      if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(m);
      else this.backlog.push(m);
    });
    proc.on('exit', (code) => {
      if (code && code !== 0) console.error(`child exited with ${code}`);
    });
  }
  /** The next message of `type` passing `test`. @throws when none came within `timeoutMs`. */
  next<T>(type: string, test: (m: any) => boolean = () => true, timeoutMs = 120_000): Promise<T> {
    const i = this.backlog.findIndex((m) => m.type === type && test(m));
    if (i >= 0) return Promise.resolve(this.backlog.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no ${type} message within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ type, test, resolve: (m) => (clearTimeout(t), resolve(m)) });
    });
  }
  send(m: unknown) {
    this.proc.send(m as never);
  }
  /** Ask it to stop; killed after 5 s. */
  async stop() {
    if (this.proc.exitCode !== null) return;
    const exited = new Promise((r) => this.proc.once('exit', r));
    this.send({ type: 'stop' });
    await Promise.race([exited, sleep(5000)]);
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
  }
}

/** Start `script` (a path from the repository root) under tsx with `env` added and IPC. */
export function startChild(script: string, env: Record<string, string> = {}, nodeArgs: string[] = []): BenchChild {
  return new BenchChild(
    spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
}
