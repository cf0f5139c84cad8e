/**
 * The draw store over Redis (one Redis or a Cluster). Keys, under the deployment prefix `p`, in the event's slot:
 * - `p{e:<id>}:draw`          Hash: def (definition JSON), settings (JSON), v (version), at (created, ms);
 * - `p{e:<id>}:draw-entries`  List: the entries' JSON, in order.
 * A create and a change are each one Lua script on those two keys: the version check, the entries pushed and
 * the settings set happen together or not at all.
 */
import type { Redis, RedisCluster } from './redis';
import { LuaScript, RedisKeyspace } from './redis-keyspace';
import type { DrawChange, DrawDoc, DrawSaveResult, DrawStore } from './draw-store';

/** KEYS: draw, entries; ARGV: def, settings, at, replacing ('' = none). → {'ok', 0} | {'stale', stored or -1}. */
const CREATE = new LuaScript(`
local v = redis.call('HGET', KEYS[1], 'v')
if v then
  if ARGV[4] == '' or tonumber(v) ~= tonumber(ARGV[4]) then return {'stale', tonumber(v)} end
elseif ARGV[4] ~= '' then
  return {'stale', -1}
end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], 'def', ARGV[1], 'settings', ARGV[2], 'at', ARGV[3], 'v', 0)
return {'ok', 0}
`);
/** KEYS: draw, entries; ARGV: expected, settings ('' = unchanged), entries… → {'ok', v} | {'stale', stored or -1}. */
const CHANGE = new LuaScript(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {'stale', -1} end
v = tonumber(v)
if v ~= tonumber(ARGV[1]) then return {'stale', v} end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'settings', ARGV[2]) end
redis.call('HSET', KEYS[1], 'v', v + 1)
return {'ok', v + 1}
`);

export class RedisDrawStore extends RedisKeyspace implements DrawStore {
  readonly kind = 'redis' as const;

  constructor(client: Redis | RedisCluster, prefix = 'cuecast:') {
    super(client, prefix);
  }

  private keys(eventId: string): [string, string] {
    return [`${this.prefix}{e:${eventId}}:draw`, `${this.prefix}{e:${eventId}}:draw-entries`];
  }

  async create(doc: Omit<DrawDoc, 'version' | 'entries'>, replacing?: number): Promise<DrawSaveResult> {
    const r = (await CREATE.run(this.redis, this.keys(doc.eventId), [
      JSON.stringify(doc.definition),
      JSON.stringify(doc.settings),
      String(doc.createdAt),
      replacing === undefined ? '' : String(replacing),
    ])) as [string, number];
    return { status: r[0] === 'ok' ? 'ok' : 'stale', version: Number(r[1]) };
  }

  async load(eventId: string): Promise<DrawDoc | null> {
    const [draw, list] = this.keys(eventId);
    // One slot, one round trip: the hash and the list as of the same moment.
    const [h, entries] = (await this.redis.multi().hGetAll(draw).lRange(list, 0, -1).exec()) as unknown as [Record<string, string>, string[]];
    if (!h || h.v === undefined) return null;
    return {
      eventId,
      definition: JSON.parse(h.def!),
      settings: JSON.parse(h.settings!),
      entries: entries.map((e) => JSON.parse(e)),
      version: Number(h.v),
      createdAt: Number(h.at),
    };
  }

  async change(eventId: string, expected: number, change: DrawChange): Promise<DrawSaveResult> {
    const args = [String(expected), change.settings ? JSON.stringify(change.settings) : '', ...(change.entries ?? []).map((e) => JSON.stringify(e))];
    const r = (await CHANGE.run(this.redis, this.keys(eventId), args)) as [string, number];
    return { status: r[0] === 'ok' ? 'ok' : 'stale', version: Number(r[1]) };
  }

  /** The client belongs to the Redis backend, which closes it. */
  async close(): Promise<void> {}
}
