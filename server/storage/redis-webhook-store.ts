/**
 * The webhook store over Redis (one Redis or a Cluster). Keys, under the deployment prefix `p`, in the event's slot:
 * - `p{e:<id>}:webhooks`        Hash: hook id → the hook's JSON (url, secret, createdAt);
 * - `p{e:<id>}:webhook-status`  Hash: hook id → its status JSON.
 * `add` (count and set) and `setStatus` (only while the hook exists) are each one Lua script.
 */
import type { WebhookStatus } from '../../shared/protocol/webhooks';
import type { Redis, RedisCluster } from './redis';
import { LuaScript, RedisKeyspace } from './redis-keyspace';
import { freshStatus, type StoredWebhook, type StoredWebhookWithStatus, type WebhookStore } from './webhook-store';

/** KEYS: hooks, status; ARGV: id, hook JSON, status JSON, max → 1 added | 0 full. */
const ADD = new LuaScript(`
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
`);
/** KEYS: hooks, status; ARGV: id, status JSON → 1 kept | 0 no such hook. */
const SET_STATUS = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
`);

export class RedisWebhookStore extends RedisKeyspace implements WebhookStore {
  constructor(client: Redis | RedisCluster, prefix = 'cuecast:') {
    super(client, prefix);
  }

  private keys(eventId: string): [string, string] {
    return [`${this.prefix}{e:${eventId}}:webhooks`, `${this.prefix}{e:${eventId}}:webhook-status`];
  }

  async add(eventId: string, hook: StoredWebhook, max: number): Promise<boolean> {
    const { id, url, secret, createdAt } = hook;
    const r = await ADD.run(this.redis, this.keys(eventId), [id, JSON.stringify({ id, url, secret, createdAt }), JSON.stringify(freshStatus()), String(max)]);
    return Number(r) === 1;
  }

  async list(eventId: string): Promise<StoredWebhookWithStatus[]> {
    const [hooks, status] = this.keys(eventId);
    const [h, s] = (await this.redis.multi().hGetAll(hooks).hGetAll(status).exec()) as unknown as [Record<string, string>, Record<string, string>];
    return Object.entries(h ?? {})
      .map(([id, json]) => ({ ...(JSON.parse(json) as StoredWebhook), status: s?.[id] ? (JSON.parse(s[id]) as WebhookStatus) : freshStatus() }))
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  async remove(eventId: string, id: string): Promise<boolean> {
    const [hooks, status] = this.keys(eventId);
    const [n] = (await this.redis.multi().hDel(hooks, id).hDel(status, id).exec()) as unknown as [number, number];
    return Number(n) > 0;
  }

  async setStatus(eventId: string, id: string, status: WebhookStatus): Promise<void> {
    await SET_STATUS.run(this.redis, this.keys(eventId), [id, JSON.stringify(status)]);
  }
}
