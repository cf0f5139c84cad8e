/**
 * A real Redis Cluster for tests: `spawnRedisCluster()` starts N masters (no replicas) from the machine's
 * redis-server (Debian's package, Redis 7+ for sharded pub/sub) on free ports of 127.0.0.1 in a temporary
 * directory, joins them with `redis-cli --cluster create`, waits for `cluster_state:ok` on every node, and
 * `dispose()` stops them and deletes the directory. `requireRedisCluster()` checks the binaries: with CI=true
 * a missing one throws; otherwise it returns false and prints what to install, and the suite skips itself.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './redis';

const run = promisify(execFile);

/** Are redis-server and redis-cli ≥ 7 installed? Throws under CI=true when not. */
export function requireRedisCluster(): boolean {
  const server = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  const cli = spawnSync('redis-cli', ['--version'], { encoding: 'utf8' });
  const major = Number(/v=(\d+)\./.exec(server.stdout ?? '')?.[1] ?? 0);
  let problem = '';
  if (server.status !== 0 || cli.status !== 0) problem = 'redis-server / redis-cli not installed';
  else if (major < 7) problem = `redis-server ${major}.x is too old for sharded pub/sub (SPUBLISH needs Redis 7)`;
  if (!problem) return true;
  const msg = `${problem}: the Redis Cluster suite needs Redis 7+ (apt-get install -y redis-server)`;
  if (process.env.CI === 'true') throw new Error(msg);
  console.warn(`[skip] ${msg}`);
  return false;
}

export interface RedisClusterHandle {
  /** Seed URLs, one per master: `redis://127.0.0.1:<port>`. */
  urls: string[];
  ports: number[];
  /** Port of the master serving the slot of `key` (a key or a sharded channel name). */
  masterOf(key: string): Promise<number>;
  /**
   * SIGKILL the node on `port` (a crash) and start it again on the same port and files (its nodes.conf keeps
   * its slots, the AOF with fsync always its data); resolves once every node reports cluster_state:ok.
   */
  restart(port: number): Promise<void>;
  /** Stop everything and delete the directory. */
  dispose(): Promise<void>;
}

/** `redis-cli -p port args…` → stdout. */
export async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });
  return stdout;
}

/** Start a `masters`-node cluster (default 3); resolves once every node reports cluster_state:ok (within 30 s). */
export async function spawnRedisCluster(masters = 3): Promise<RedisClusterHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'cuecast-cluster-'));
  const children = new Map<number, ChildProcess>();
  const args = new Map<number, string[]>();
  const ports: number[] = [];
  const kill = (c: ChildProcess | undefined) =>
    new Promise<void>((resolve) => {
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  const dispose = async () => {
    await Promise.all([...children.values()].map(kill));
    rmSync(dir, { recursive: true, force: true });
  };
  // A node that exits before it answers (its port or bus port taken meanwhile: freePort's port is free only when
  // it is picked, and any process's listen(0) or outgoing connection may take it before redis-server binds it) is
  // reported at once, not after the 30 s wait.
  const start = async (port: number) => {
    const child = spawn('redis-server', args.get(port)!, { stdio: 'ignore' });
    children.set(port, child);
    await until(async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new NodeExited(port);
      return (await cli(port, 'ping').catch(() => '')).includes('PONG');
    }, `node ${port} answers PING`);
  };
  const nodeArgs = (port: number, bus: number) => [
    '--port',
    String(port),
    '--cluster-port',
    String(bus),
    '--bind',
    '127.0.0.1',
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    `nodes-${port}.conf`,
    '--cluster-node-timeout',
    '5000',
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--appendfilename',
    `aof-${port}.aof`,
    '--appenddirname',
    `aof-${port}`,
    '--dir',
    dir,
  ];
  /** Start a new node on fresh ports, picking again (up to 5 times) when a port was taken before it bound it. */
  const startNew = async (): Promise<number> => {
    for (let attempt = 1; ; attempt++) {
      // The cluster bus gets its own free port (the default, port + 10000, may be taken or out of range).
      const [port, bus] = [await freePort(), await freePort()];
      args.set(port, nodeArgs(port, bus));
      try {
        await start(port);
        return port;
      } catch (err) {
        if (!(err instanceof NodeExited) || attempt >= 5) throw err;
        children.delete(port);
        args.delete(port);
      }
    }
  };
  const clusterOk = async () => {
    for (const port of ports)
      await until(async () => (await cli(port, 'cluster', 'info').catch(() => '')).includes('cluster_state:ok'), `node ${port} reports cluster_state:ok`);
  };
  try {
    for (const port of await Promise.all(Array.from({ length: masters }, startNew))) ports.push(port);
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    await clusterOk();
    return {
      urls: ports.map((p) => `redis://127.0.0.1:${p}`),
      ports,
      dispose,
      async masterOf(key) {
        const slot = Number((await cli(ports[0]!, 'cluster', 'keyslot', key)).trim());
        // CLUSTER NODES lines: <id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <state> <slot ranges…>
        for (const line of (await cli(ports[0]!, 'cluster', 'nodes')).trim().split('\n')) {
          const f = line.split(' ');
          for (const range of f.slice(8)) {
            const [from, to = from] = range.split('-').map(Number);
            if (slot >= from! && slot <= to!) return Number(/:(\d+)@/.exec(f[1]!)![1]);
          }
        }
        throw new Error(`no master serves slot ${slot}`);
      },
      async restart(port) {
        await kill(children.get(port));
        await start(port);
        await clusterOk();
      },
    };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** A cluster node's process ended before it answered PING. */
class NodeExited extends Error {
  constructor(port: number) {
    super(`Redis Cluster set-up: the node on port ${port} exited before it answered (its port taken?)`);
  }
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Redis Cluster set-up: timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
