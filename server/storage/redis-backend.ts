/**
 * Redis mode of the match server, on one Redis (`url`, PUBLISH fan-out) or a Redis Cluster (`clusterUrls`,
 * sharded SPUBLISH fan-out, Redis 7+): the three connections (data, pub, sub), the match and event stores
 * (both on the data connection), the Socket.IO adapter, and the moments the caller must resync its viewers because pub/sub may have dropped pushes.
 */
import type { Logger } from 'pino';
import type { Bus } from '../fanout/bus';
import { publishFirstAdapter, publishFirstShardedAdapter } from '../fanout/fanout-adapter';
import { closeRedis, connectRedis, connectRedisCluster, redisReady, type Redis, type RedisCluster } from './redis';
import { RedisEventStore } from './redis-event-store';
import { migrateMatchKeys } from './redis-migrate';
import { RedisStore } from './redis-store';
import { RedisShotClockStore } from '../shot-clock/store';
import { RedisDrawStore } from '../draws/redis-draw-store';

export interface RedisBackendOptions {
  /** One Redis, `redis://host:6379`. */
  url?: string;
  /** Seed nodes of a Redis Cluster (`redis://host:port` each). Exclusive with `url`. */
  clusterUrls?: readonly string[];
  /** Prefix of every key and channel. */
  prefix: string;
  log: Logger;
}

/** The Redis stores and the bus over the same Redis (or Redis Cluster). */
export interface RedisBackend extends Bus {
  readonly mode: 'redis' | 'cluster';
  readonly store: RedisStore;
  readonly events: RedisEventStore;
  readonly shotClocks: RedisShotClockStore;
  readonly draws: RedisDrawStore;
}

/** In cluster mode, resync this long after the last reconnection attempt of a subscriber node (attempts come ≤ 1 s apart). */
const CLUSTER_RESYNC_QUIET_MS = 1500;

/**
 * Connect the data, pub and sub connections; on one Redis, first move the match keys of an earlier version to
 * the hash-tagged layout (store/redis-migrate.ts).
 * @throws when both or neither of `url` / `clusterUrls` are given, or Redis is not reachable or fails during
 *   the move (nothing stays open).
 */
export async function connectRedisBackend(opts: RedisBackendOptions): Promise<RedisBackend> {
  const cluster = opts.clusterUrls !== undefined && opts.clusterUrls.length > 0;
  if (cluster === (opts.url !== undefined)) throw new Error('Redis mode needs exactly one of REDIS_URL and REDIS_CLUSTER_URLS');
  const { log, prefix } = opts;
  const channelPrefix = `${prefix}socket.io`;

  if (!cluster) {
    const clients: Redis[] = [];
    try {
      for (const name of ['data', 'pub', 'sub']) clients.push(await connectRedis(opts.url!, log, name));
    } catch (err) {
      await Promise.all(clients.map(closeRedis));
      throw err;
    }
    const [data, pub, sub] = clients as [Redis, Redis, Redis];
    try {
      // Matches stored by a version before the hash-tagged keys: moved once (then one GET per start).
      await migrateMatchKeys(data, prefix, log);
    } catch (err) {
      await Promise.all(clients.map(closeRedis));
      throw err;
    }
    return {
      mode: 'redis',
      store: new RedisStore(data, prefix),
      events: new RedisEventStore(data, prefix),
      shotClocks: new RedisShotClockStore(data, prefix),
      draws: new RedisDrawStore(data, prefix),
      adapter(hooks) {
        // Pub/sub drops what is published while Redis is away.
        sub.on('ready', () => hooks.reconnected());
        return publishFirstAdapter(pub, sub, channelPrefix);
      },
      healthy: () => clients.every(redisReady),
      close: async () => void (await Promise.all(clients.map(closeRedis))),
    };
  }

  const clients: RedisCluster[] = [];
  try {
    clients.push(await connectRedisCluster(opts.clusterUrls!, log, 'data'));
    clients.push(await connectRedisCluster(opts.clusterUrls!, log, 'pub', { pubSubOnly: true }));
    clients.push(await connectRedisCluster(opts.clusterUrls!, log, 'sub', { pubSubOnly: true }));
  } catch (err) {
    await Promise.all(clients.map(closeRedis));
    throw err;
  }
  const [data, pub, sub] = clients as [RedisCluster, RedisCluster, RedisCluster];
  let quiet: NodeJS.Timeout | undefined;
  return {
    mode: 'cluster',
    store: new RedisStore(data, prefix),
    events: new RedisEventStore(data, prefix),
    shotClocks: new RedisShotClockStore(data, prefix),
    draws: new RedisDrawStore(data, prefix),
    adapter(hooks) {
      // A subscriber node reconnects (and node-redis subscribes again) after its last attempt; no `ready` event
      // is emitted for a reconnection of a cluster node, so resync once the attempts have stopped.
      sub.on('node-reconnecting', () => {
        clearTimeout(quiet);
        quiet = setTimeout(() => hooks.reconnected(), CLUSTER_RESYNC_QUIET_MS);
      });
      return publishFirstShardedAdapter(pub, sub as never, channelPrefix, {
        onRoomSubscribed: (room) => hooks.roomSubscribed(room),
        onError: (err, channel) => log.warn({ channel, err: err.message }, 'redis cluster subscription failed'),
      });
    },
    healthy: () => clients.every(redisReady),
    close: async () => {
      clearTimeout(quiet);
      await Promise.all(clients.map(closeRedis));
    },
  };
}
