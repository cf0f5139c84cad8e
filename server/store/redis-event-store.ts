/**
 * Redis adapter of the event store. Keys, under the deployment prefix `p`:
 * - `p:e:<id>`        Hash: doc (the event JSON, token hash included), row (listing JSON), v (version);
 * - `p:events`        Sorted set: event id scored by last change (ms);
 * - `p:ml:<matchId>`  String: the event the match was put on.
 * Create and compare-and-set are Lua scripts, so the version check, the new document, the listing and the
 * match links change together or not at all; another instance's write in between makes the save `stale`.
 */
import { createHash } from 'node:crypto';
import type { Redis } from '../redis';
import type { EventListing } from '../../shared/protocol/event';
import { listingOf, type EventDoc, type EventStore, type LinkChange, type SaveResult } from './event-store';

/** KEYS: event, index, links to set…, links to drop…; ARGV: expected, doc, row, eventId, #links to set, updatedAt. */
const SAVE_SCRIPT = `
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {'missing', 0} end
v = tonumber(v)
if v ~= tonumber(ARGV[1]) then return {'stale', v} end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'row', ARGV[3], 'v', v + 1)
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[4])
local n = tonumber(ARGV[5])
for i = 3, 2 + n do redis.call('SET', KEYS[i], ARGV[4]) end
for i = 3 + n, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[4] then redis.call('DEL', KEYS[i]) end
end
return {'ok', v + 1}
`;
/** KEYS: event, index, links…; ARGV: doc, row, eventId, updatedAt, version. */
const CREATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'row', ARGV[2], 'v', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
for i = 3, #KEYS do redis.call('SET', KEYS[i], ARGV[3]) end
return 1
`;
const sha = (s: string) => createHash('sha1').update(s).digest('hex');
const SAVE_SHA = sha(SAVE_SCRIPT);
const CREATE_SHA = sha(CREATE_SCRIPT);

/** Event store over Redis; safe to share between server instances. */
export class RedisEventStore implements EventStore {
  readonly kind = 'redis' as const;
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'cuecast:',
  ) {}

  private eventKey(id: string): string {
    return `${this.prefix}e:${id}`;
  }
  private linkKey(matchId: string): string {
    return `${this.prefix}ml:${matchId}`;
  }
  private get indexKey(): string {
    return `${this.prefix}events`;
  }

  /** Run a script by its hash, loading it on the first NOSCRIPT. */
  private async run(script: string, hash: string, keys: string[], args: string[]): Promise<unknown> {
    const opts = { keys, arguments: args };
    try {
      return await this.redis.evalSha(hash, opts);
    } catch (err) {
      if (!String((err as Error).message).includes('NOSCRIPT')) throw err;
      return this.redis.eval(script, opts);
    }
  }

  async createEvent(doc: EventDoc): Promise<void> {
    const keys = [this.eventKey(doc.id), this.indexKey, ...doc.matches.map((m) => this.linkKey(m.id))];
    const args = [JSON.stringify(doc), JSON.stringify(listingOf(doc)), doc.id, String(doc.updatedAt), String(doc.version)];
    const created = await this.run(CREATE_SCRIPT, CREATE_SHA, keys, args);
    if (Number(created) !== 1) throw new Error(`event ${doc.id} already exists`);
  }

  async loadEvent(id: string): Promise<EventDoc | null> {
    const raw = await this.redis.hGet(this.eventKey(id), 'doc');
    return typeof raw === 'string' ? (JSON.parse(raw) as EventDoc) : null;
  }

  async saveEvent(doc: EventDoc, expectedVersion: number, links: LinkChange): Promise<SaveResult> {
    const keys = [this.eventKey(doc.id), this.indexKey, ...links.linked.map((m) => this.linkKey(m)), ...links.unlinked.map((m) => this.linkKey(m))];
    const args = [String(expectedVersion), JSON.stringify(doc), JSON.stringify(listingOf(doc)), doc.id, String(links.linked.length), String(doc.updatedAt)];
    const [status, version] = (await this.run(SAVE_SCRIPT, SAVE_SHA, keys, args)) as [string, number];
    if (status === 'missing') throw new Error(`event ${doc.id} is not in the store`);
    if (status !== 'ok' && status !== 'stale') throw new Error(`unexpected save reply ${status}`);
    return { status, version: Number(version) };
  }

  async eventOfMatch(matchId: string): Promise<string | null> {
    return (await this.redis.get(this.linkKey(matchId))) ?? null;
  }

  async listEvents(limit: number): Promise<EventListing[]> {
    const ids = await this.redis.zRange(this.indexKey, 0, limit - 1, { REV: true });
    // Concurrent commands leave in one pipeline.
    const rows = await Promise.all(ids.map((id) => this.redis.hGet(this.eventKey(id), 'row')));
    return rows.filter((r): r is string => typeof r === 'string').map((r) => JSON.parse(r) as EventListing);
  }

  /** The client belongs to the caller, who closes it. */
  async close(): Promise<void> {}
}
