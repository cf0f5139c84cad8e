/**
 * Real Redis for the server suites (never a mock).
 * - `requireRedis()` checks that REDIS_URL (default redis://127.0.0.1:6379) answers PING. When it does not:
 *   with CI=true it throws (the run fails); otherwise it returns `available: false` and prints what to install,
 *   and the suite skips itself.
 * - `testPrefix()` gives every suite its own key / channel prefix; `dropPrefix()` deletes its keys afterwards.
 * - `spawnRedis()` starts a private redis-server on a free port (AOF on, fsync always) that a test may stop
 *   and restart; the machine's shared Redis is never stopped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Send PING over a raw socket; true on +PONG within `timeoutMs`. */
export function ping(url: string, timeoutMs = 1000): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const sock = new Socket();
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('error', () => done(false));
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString();
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG') || buf.startsWith('-NOAUTH'));
    });
    sock.connect(Number(u.port || 6379), u.hostname || '127.0.0.1', () => sock.write('PING\r\n'));
  });
}

/** Is the suite's Redis reachable? Throws under CI=true when it is not. */
export async function requireRedis(): Promise<{ url: string; available: boolean }> {
  if (await ping(REDIS_URL)) return { url: REDIS_URL, available: true };
  const msg = `Redis not reachable at ${REDIS_URL}: install redis-server (apt-get install -y redis-server) or set REDIS_URL`;
  if (process.env.CI === 'true') throw new Error(msg);
  console.warn(`[skip] ${msg}`);
  return { url: REDIS_URL, available: false };
}

/** Is the redis-server binary installed (needed by `spawnRedis`)? Throws under CI=true when it is not. */
export function requireRedisServerBinary(): boolean {
  if (spawnSync('redis-server', ['--version']).status === 0) return true;
  const msg = 'redis-server not installed (needed to simulate an outage): apt-get install -y redis-server';
  if (process.env.CI === 'true') throw new Error(msg);
  console.warn(`[skip] ${msg}`);
  return false;
}

/** A fresh key / channel prefix for one suite run. */
export function testPrefix(suite: string): string {
  return `cuecast-test:${suite}:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

/** Delete every key under `prefix`. */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length) await client.del(keys);
    }
  } finally {
    await client.close();
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A private redis-server child: stop (SIGKILL, like a crash) and start it again on the same port and data. */
export interface PrivateRedis {
  url: string;
  port: number;
  /** Kill the process (no graceful save; the AOF with fsync always keeps every acknowledged write). */
  stop(): Promise<void>;
  /** Start it again on the same port and directory; resolves when it answers PING. */
  start(): Promise<void>;
  /** SIGSTOP: the process stalls (connections stay open, nothing is answered) until `resume`. */
  pause(): void;
  /** SIGCONT after `pause`: it answers what queued up meanwhile. */
  resume(): void;
  /** Stop for good and delete its directory. */
  dispose(): Promise<void>;
}

/**
 * Spawn a redis-server on a free port with AOF (appendfsync always) in a temporary directory; `args` are more
 * command-line settings (e.g. `['--maxmemory', '8mb', '--maxmemory-policy', 'noeviction']`).
 */
export async function spawnRedis(args: readonly string[] = []): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cuecast-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir, ...args],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 5000;
    while (!(await ping(url, 200))) {
      if (Date.now() > deadline) throw new Error(`private redis-server on port ${port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };
  await start();
  return {
    url,
    port,
    start,
    stop,
    pause: () => void (child as ChildProcess | null)?.kill('SIGSTOP'),
    resume: () => void (child as ChildProcess | null)?.kill('SIGCONT'),
    dispose: async () => {
      (child as ChildProcess | null)?.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP proxy to a Redis, to cut one instance off from Redis while the others keep it. */
export interface RedisProxy {
  url: string;
  /** Drop every proxied connection and refuse new ones (they are closed at once) until `heal`. */
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

/** Start a proxy on a free port forwarding to `targetUrl`. */
export async function proxyRedis(targetUrl: string): Promise<RedisProxy> {
  const target = new URL(targetUrl);
  const conns = new Set<Socket>();
  let broken = false;
  const server = createServer((client) => {
    if (broken) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    conns.add(client);
    conns.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      conns.delete(client);
      conns.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.connect(Number(target.port || 6379), target.hostname, () => {
      client.pipe(upstream);
      upstream.pipe(client);
    });
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () => {
      broken = true;
      for (const c of conns) c.destroy();
      conns.clear();
    },
    heal: () => {
      broken = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of conns) c.destroy();
        server.close(() => resolve());
      }),
  };
}
