/**
 * The Redis backend: every storage port (server/storage/ports.ts) over one Redis or a Redis Cluster client —
 * the match store (redis-store.ts), the tournament store and the sponsors' logos (redis-tournament-store.ts)
 * and the shot clocks (redis-shot-clock-store.ts), all under one key prefix. The connection belongs to the caller
 * (server/backends.ts opens and closes it).
 */
import { RedisDrawStore } from './redis-draw-store';
import { RedisWebhookStore } from './redis-webhook-store';
import type { StoragePorts } from './ports';
import type { Redis, RedisCluster } from './redis';
import { RedisTournamentStore, RedisSponsorStore } from './redis-tournament-store';
import { RedisShotClockStore } from './redis-shot-clock-store';
import { RedisStore } from './redis-store';

/**
 * Every port over `client` under `prefix` (default `cuecast:`); `close` leaves the client open.
 * @throws when `prefix` has a `{` or `}` (see `RedisKeyspace`).
 */
export function redisStorage(client: Redis | RedisCluster, prefix = 'cuecast:'): StoragePorts {
  return {
    kind: 'redis',
    matches: new RedisStore(client, prefix),
    tournaments: new RedisTournamentStore(client, prefix),
    shotClocks: new RedisShotClockStore(client, prefix),
    sponsors: new RedisSponsorStore(client, prefix),
    draws: new RedisDrawStore(client, prefix),
    webhooks: new RedisWebhookStore(client, prefix),
    close: async () => {},
  };
}
