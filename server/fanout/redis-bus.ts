/**
 * The bus over Redis (server/fanout/bus.ts): on one Redis, PUBLISH fan-out (`redisBus`); on a Redis Cluster,
 * sharded SPUBLISH fan-out, Redis 7+ (`redisClusterBus`). Each gives Socket.IO its adapter
 * (./fanout-adapter.ts) over the pub and sub connections, and tells the caller when to resync its viewers
 * because pub/sub may have dropped pushes. The connections are opened by server/backends.ts; the bus reports
 * them all in `healthy` and closes them all in `close` (the data connection of the stores included, which
 * closes last, after the stores).
 */
import type { Logger } from 'pino';
import type { Bus } from './bus';
import { publishFirstAdapter, publishFirstShardedAdapter } from './fanout-adapter';
import { closeRedis, redisReady, type Redis, type RedisCluster } from '../storage/redis';

/** In cluster mode, resync this long after the last reconnection attempt of a subscriber node (attempts come ≤ 1 s apart). */
const CLUSTER_RESYNC_QUIET_MS = 1500;

/** The connections of a Redis bus: `pub` and `sub` for the adapter, and every connection it reports and closes. */
export interface RedisBusConnections<C> {
  pub: C;
  sub: C;
  all: readonly C[];
}

/** The bus over one Redis: channels `<prefix>socket.io…`. */
export function redisBus({ pub, sub, all }: RedisBusConnections<Redis>, prefix: string): Bus {
  return {
    mode: 'redis',
    adapter(hooks) {
      // Pub/sub drops what is published while Redis is away.
      sub.on('ready', () => hooks.reconnected());
      return publishFirstAdapter(pub, sub, `${prefix}socket.io`);
    },
    healthy: () => all.every(redisReady),
    close: async () => void (await Promise.all(all.map(closeRedis))),
  };
}

/** The bus over a Redis Cluster (sharded pub/sub): channels `<prefix>socket.io…`. */
export function redisClusterBus({ pub, sub, all }: RedisBusConnections<RedisCluster>, prefix: string, log: Logger): Bus {
  let quiet: NodeJS.Timeout | undefined;
  return {
    mode: 'cluster',
    adapter(hooks) {
      // A subscriber node reconnects (and node-redis subscribes again) after its last attempt; no `ready` event
      // is emitted for a reconnection of a cluster node, so resync once the attempts have stopped.
      sub.on('node-reconnecting', () => {
        clearTimeout(quiet);
        quiet = setTimeout(() => hooks.reconnected(), CLUSTER_RESYNC_QUIET_MS);
      });
      return publishFirstShardedAdapter(pub, sub as never, `${prefix}socket.io`, {
        onRoomSubscribed: (room) => hooks.roomSubscribed(room),
        onError: (err, channel) => log.warn({ channel, err: err.message }, 'redis cluster subscription failed'),
      });
    },
    healthy: () => all.every(redisReady),
    close: async () => {
      clearTimeout(quiet);
      await Promise.all(all.map(closeRedis));
    },
  };
}
