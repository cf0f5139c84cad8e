/**
 * node-redis v5 client factories, for one Redis (`connectRedis`) or a Redis Cluster (`connectRedisCluster`):
 * every client gets an `error` listener (an unhandled `error` event would crash the process while Redis is
 * away), a bounded reconnect back-off, and logs its state changes.
 */
import { createClient, createCluster } from 'redis';
import type { Logger } from 'pino';

export type Redis = ReturnType<typeof createClient>;
export type RedisCluster = ReturnType<typeof createCluster>;

/** Reconnect back-off of every connection: 50 ms, 100 ms, … capped at 1 s. */
const reconnectStrategy = (retries: number) => Math.min(50 * (retries + 1), 1000);

/**
 * Create and connect a client to `url`. While Redis is unreachable the client keeps reconnecting
 * (50 ms, 100 ms, … capped at 1 s) and queues commands until it is back.
 * @throws when the first connection fails within `connectTimeoutMs`.
 */
export async function connectRedis(url: string, log: Logger, name: string, connectTimeoutMs = 5000): Promise<Redis> {
  const client: Redis = createClient({
    url,
    // Shows up in CLIENT LIST (e.g. cuecast-sub) when debugging a deployment.
    name: `cuecast-${name}`,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy,
    },
  });
  let down = false;
  let lastError = '';
  client.on('error', (err: Error) => {
    if (!down) log.warn({ redis: name, err: err.message }, 'redis connection error');
    down = true;
    lastError = err.message;
  });
  client.on('ready', () => {
    if (down) log.info({ redis: name }, 'redis reconnected');
    down = false;
  });
  const timer = setTimeout(() => {
    if (!client.isReady) client.destroy();
  }, connectTimeoutMs);
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`Redis not reachable at ${url}: ${lastError || (err as Error).message}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  // Destroyed by the timer above while still retrying: connect() then returns a closed client, not an error.
  if (!client.isReady) {
    if (client.isOpen) client.destroy();
    throw new Error(`Redis not reachable at ${url}: ${lastError || `no answer within ${connectTimeoutMs} ms`}`);
  }
  return client;
}

/**
 * Create and connect a Redis Cluster client from seed node URLs (`redis://host:port`, any subset of the
 * cluster's nodes; the client discovers the rest with CLUSTER SLOTS and follows MOVED / ASK redirections).
 * Credentials and TLS (`rediss:`) of the first URL apply to every node. `pubSubOnly` clients open node
 * connections only for what they subscribe to. Node connections reconnect like `connectRedis`.
 * @throws when no seed node answers within `connectTimeoutMs`, or a URL is not a redis:// URL.
 */
export async function connectRedisCluster(
  urls: readonly string[],
  log: Logger,
  name: string,
  opts: { pubSubOnly?: boolean; connectTimeoutMs?: number } = {},
): Promise<RedisCluster> {
  const connectTimeout = opts.connectTimeoutMs ?? 5000;
  const seeds = urls.map((u) => {
    const url = new URL(u);
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new Error(`REDIS_CLUSTER_URLS: "${u}" is not a redis:// URL`);
    return url;
  });
  if (seeds.length === 0) throw new Error('REDIS_CLUSTER_URLS: no seed node');
  const first = seeds[0]!;
  const cluster: RedisCluster = createCluster({
    rootNodes: seeds.map((u) => ({ url: u.href })),
    defaults: {
      name: `cuecast-${name}`,
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      socket: { connectTimeout, reconnectStrategy, ...(first.protocol === 'rediss:' ? { tls: true as const } : {}) },
    },
    minimizeConnections: opts.pubSubOnly === true,
  });
  const down = new Set<string>();
  const node = (n: { host: string; port: number }) => `${n.host}:${n.port}`;
  cluster.on('error', (err: Error) => log.warn({ redis: name, err: err.message }, 'redis cluster error'));
  cluster.on('node-error', (err: Error, n: { host: string; port: number }) => {
    if (!down.has(node(n))) log.warn({ redis: name, node: node(n), err: err.message }, 'redis cluster node error');
    down.add(node(n));
  });
  cluster.on('node-reconnecting', (n: { host: string; port: number }) => down.add(node(n)));
  const timer = setTimeout(() => {
    if (!cluster.isOpen) return;
    void cluster.destroy();
  }, connectTimeout);
  try {
    await cluster.connect();
  } catch (err) {
    throw new Error(`Redis Cluster not reachable at ${urls.join(',')}: ${(err as Error).message}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  return cluster;
}

/** Is every connection of `client` up (a cluster: every master node's data and pub/sub connection it opened)? */
export function redisReady(client: Redis | RedisCluster): boolean {
  if (!isCluster(client)) return (client as Redis).isReady;
  return client.isOpen && client.masters.every((m) => (!m.client || m.client.isReady) && (!m.pubSub || m.pubSub.client.isReady));
}

/** Is `client` a cluster client? */
export function isCluster(client: Redis | RedisCluster): client is RedisCluster {
  return Array.isArray((client as RedisCluster).masters);
}

/** Quit a client or cluster gracefully (flushes queued commands); destroy it if that fails or takes over 2 s. */
export async function closeRedis(client: Redis | RedisCluster): Promise<void> {
  if (!client.isOpen) return;
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 2000).unref());
  try {
    const res = await Promise.race([client.close().then(() => 'ok' as const), timeout]);
    if (res === 'timeout' && client.isOpen) client.destroy();
  } catch {
    if (client.isOpen) client.destroy();
  }
}
