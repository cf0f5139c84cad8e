/**
 * Redis adapter of the tournament store (an "event" in the API), for one Redis or a Redis Cluster. The key
 * parts `e:`, `event-links` and `events` keep the API's word for a tournament (the keys of existing deployments
 * stay where they are). Keys, under the deployment prefix `p`:
 * - `p{e:<id>}:doc`          Hash: doc (the event JSON, token hash included), row (listing JSON), v (version);
 * - `p{m:<matchId>}:event-links`  Hash: event id → the event version that put the match on it (in the
 *                            match's slot, beside its log);
 * - `p:events`               Sorted set: event id scored by last change (ms) — the listing order;
 * - `p{e:<id>}:sponsor:<sid>` Hash: type, b64 (a sponsor's logo, base64; at most 512 KiB before encoding).
 *
 * Cluster-safe: every script touches the keys of one slot. The create and the compare-and-set of an event are
 * each one Lua script on its `{e:<id>}` hash alone, so the version check and the new document change together
 * or not at all (another instance's write in between makes the save `stale`). The links and the listing are
 * separate commands around it, ordered so a crash at any point leaves nothing wrong a reader acts on:
 * - the event document is the truth of which matches an event lists; a link is only where to look;
 * - a newly listed match is linked BEFORE the compare-and-set, so every match an event lists is always linked;
 *   a link the document does not confirm (a crash or a `stale` answer after the link) is ignored by readers
 *   (the event service checks the document: `EventService.onMatchStep`);
 * - a match no longer listed is unlinked AFTER the compare-and-set, and only if its link is older than that
 *   save (a link never goes back to an older version), so an unlink that arrives late cannot remove the link
 *   of a later save that listed the match again; a crash before it leaves a harmless extra link;
 * - the listing row is added BEFORE a create (a crash leaves a row without a document, which the listing skips)
 *   and updated AFTER each save (a crash leaves the order one change behind, never the document).
 */
import type { EventListing } from '../../shared/protocol/event';
import type { SponsorType } from '../../shared/protocol/event';
import { listingOf, type TournamentDoc, type TournamentStore, type LinkChange, type SaveResult, type SponsorImage, type SponsorStore } from './ports';
import { LuaScript, matchKey, RedisKeyspace } from './redis-keyspace';

/** KEYS: event; ARGV: expected, doc, row. → {'ok', new version} | {'stale', stored} | {'missing', 0}. */
const SAVE = new LuaScript(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {'missing', 0} end
v = tonumber(v)
if v ~= tonumber(ARGV[1]) then return {'stale', v} end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'row', ARGV[3], 'v', v + 1)
return {'ok', v + 1}
`);
/** KEYS: event; ARGV: doc, row, version. → 1 created | 0 the id exists. */
const CREATE = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'row', ARGV[2], 'v', ARGV[3])
return 1
`);
/**
 * KEYS: a match's links; ARGV: eventId, version, 'link' | 'unlink'. Link: keep the higher version. Unlink:
 * remove only a link older than the unlinking save.
 */
const LINK = new LuaScript(`
local cur = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
local v = tonumber(ARGV[2])
if ARGV[3] == 'link' then
  if v > cur then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
elseif cur >= 0 and cur < v then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1
`);

/** Tournament store over Redis; safe to share between server instances. */
export class RedisTournamentStore extends RedisKeyspace implements TournamentStore {
  readonly kind = 'redis' as const;

  /** The hash of event `id`, hash-tagged `{e:<id>}` (one slot). */
  eventKey(id: string): string {
    return `${this.prefix}{e:${id}}:doc`;
  }
  private linksKey(matchId: string): string {
    return matchKey(this.prefix, matchId, 'event-links');
  }
  private get indexKey(): string {
    return `${this.prefix}events`;
  }

  async createTournament(doc: TournamentDoc): Promise<void> {
    await Promise.all([
      this.redis.zAdd(this.indexKey, { score: doc.updatedAt, value: doc.id }),
      this.links(
        doc.id,
        doc.version,
        doc.matches.map((m) => m.id),
        'link',
      ),
    ]);
    const created = await CREATE.run(this.redis, [this.eventKey(doc.id)], [JSON.stringify(doc), JSON.stringify(listingOf(doc)), String(doc.version)]);
    if (Number(created) !== 1) throw new Error(`event ${doc.id} already exists`);
  }

  async loadTournament(id: string): Promise<TournamentDoc | null> {
    const raw = await this.redis.hGet(this.eventKey(id), 'doc');
    return typeof raw === 'string' ? (JSON.parse(raw) as TournamentDoc) : null;
  }

  async saveTournament(doc: TournamentDoc, expectedVersion: number, links: LinkChange): Promise<SaveResult> {
    await this.links(doc.id, doc.version, links.linked, 'link');
    const reply = await SAVE.run(this.redis, [this.eventKey(doc.id)], [String(expectedVersion), JSON.stringify(doc), JSON.stringify(listingOf(doc))]);
    const [status, version] = reply as [string, number];
    if (status === 'missing') throw new Error(`event ${doc.id} is not in the store`);
    if (status !== 'ok' && status !== 'stale') throw new Error(`unexpected save reply ${status}`);
    if (status === 'ok') {
      // After the save: a failure here leaves an extra link or an old listing order, both harmless (see above).
      await Promise.all([
        this.links(doc.id, doc.version, links.unlinked, 'unlink'),
        this.redis.zAdd(this.indexKey, { score: doc.updatedAt, value: doc.id }),
      ]).catch(() => undefined);
    }
    return { status, version: Number(version) };
  }

  async tournamentsOfMatch(matchId: string): Promise<string[]> {
    return this.redis.hKeys(this.linksKey(matchId));
  }

  async listTournaments(limit: number): Promise<EventListing[]> {
    const ids = await this.redis.zRange(this.indexKey, 0, limit - 1, { REV: true });
    // Concurrent commands leave in one pipeline (on a cluster, each to its event's node).
    const rows = await Promise.all(ids.map((id) => this.redis.hGet(this.eventKey(id), 'row')));
    return rows.filter((r): r is string => typeof r === 'string').map((r) => JSON.parse(r) as EventListing);
  }

  /** The client belongs to the caller, who closes it. */
  async close(): Promise<void> {}

  /** Link (or unlink) each match to event `id` as of `version`: one script per match, each in its own slot. */
  private async links(id: string, version: number, matchIds: readonly string[], op: 'link' | 'unlink'): Promise<void> {
    await Promise.all(matchIds.map((m) => LINK.run(this.redis, [this.linksKey(m)], [id, String(version), op])));
  }
}

/** Sponsors' logos over Redis: `<prefix>{e:<eventId>}:sponsor:<sponsorId>`, a hash (type, b64), in the event's slot. */
export class RedisSponsorStore extends RedisKeyspace implements SponsorStore {
  /** The key of one logo. */
  key(eventId: string, sponsorId: string): string {
    return `${this.prefix}{e:${eventId}}:sponsor:${sponsorId}`;
  }

  async put(eventId: string, sponsorId: string, image: SponsorImage): Promise<void> {
    await this.redis.hSet(this.key(eventId, sponsorId), { type: image.type, b64: image.bytes.toString('base64') });
  }

  async load(eventId: string, sponsorId: string): Promise<SponsorImage | null> {
    const h = await this.redis.hGetAll(this.key(eventId, sponsorId));
    return h.type && h.b64 !== undefined ? { type: h.type as SponsorType, bytes: Buffer.from(h.b64, 'base64') } : null;
  }

  async delete(eventId: string, sponsorId: string): Promise<void> {
    await this.redis.del(this.key(eventId, sponsorId));
  }
}
