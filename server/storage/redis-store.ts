/**
 * Redis adapter of the match store, for one Redis or a Redis Cluster. Keys, under a configurable prefix `p`:
 * - `p{m:<id>}:log`   Stream: one entry per accepted step, id `<version>-0`, fields e (the stepId; the field
 *   keeps its first name `e`), s (step JSON), t (ms);
 * - `p{m:<id>}:meta`  Hash: setup (JSON), tokenHash, createdAt, rulesVersion (absent on records older than it);
 * - `p{m:<id>}:eids`  Hash: stepId → version (idempotency; the key keeps its first name `eids`);
 * - `p{m:<id>}:snap`  String: snapshot at the latest version, `{summary, state}` (JSON);
 * - `p{m:<id>}:ckpt`  String: the engine's checkpoint (`Checkpoint`: core, statistics, version; JSON), every
 *   few hundred steps, written by the append script of the step that makes it due (or, after a load that
 *   replayed the log, by one SET);
 * - `p{m:<id>}:event-links`  Hash: the events (tournaments) the match is put on (written by the tournament store, redis-tournament-store.ts);
 * - `p:matches`       Sorted set: match id scored by last update (ms) — the listing order.
 * The `{m:<id>}` hash tag puts every key of one match in one cluster slot, so the append — one Lua script:
 * dedupe check, then XADD with the explicit id `<expected+1>-0` after an XLEN check, so a conflicting append
 * from another instance is refused (compare-and-append), never merged; any other XADD error (Redis out of memory)
 * comes back as that error, with nothing written — and the MULTI of `create` each touch
 * one slot. No script or transaction touches two matches or the listing: the listing row is updated by a
 * separate ZADD right after (a crash in between leaves the listing order one step behind, never the log).
 */
import { LuaScript, matchKey, RedisKeyspace } from './redis-keyspace';
import {
  carriedCheckpoint,
  openedRange,
  storedRulesVersion,
  type AppendExtras,
  type AppendResult,
  type Checkpoint,
  type LoadedLog,
  type MatchRecord,
  type MatchStore,
  type OpenedLog,
  type RemoveResult,
  type StoredStep,
  type StoredSnapshot,
} from './ports';
import type { MatchSummary } from '../../shared/protocol/wire';
import type { Step } from '../../shared/protocol/steps';

// KEYS: log, eids, snap, meta, ckpt (one match: one slot). ARGV: expected version, stepId, step JSON, time,
// snapshot JSON, the carried checkpoint's JSON or '' (none). Every check comes before the first write, and once
// the script has written Redis lets it finish (no out-of-memory refusal midway): step, stepId, snapshot and
// checkpoint are written together or not at all.
const APPEND = new LuaScript(`
local dup = redis.call('HGET', KEYS[2], ARGV[2])
if dup then return {'duplicate', tonumber(dup)} end
if redis.call('EXISTS', KEYS[4]) == 0 then return {'missing', 0} end
local len = redis.call('XLEN', KEYS[1])
local expected = tonumber(ARGV[1])
if len ~= expected then return {'stale', len} end
local added = redis.pcall('XADD', KEYS[1], (expected + 1) .. '-0', 'e', ARGV[2], 's', ARGV[3], 't', ARGV[4])
if type(added) == 'table' and added.err then
  if string.find(added.err, 'ID specified', 1, true) then return {'stale', redis.call('XLEN', KEYS[1])} end
  return redis.error_reply(added.err)
end
redis.call('HSET', KEYS[2], ARGV[2], expected + 1)
redis.call('SET', KEYS[3], ARGV[5])
if ARGV[6] ~= '' then redis.call('SET', KEYS[5], ARGV[6]) end
return {'ok', expected + 1}
`);

// KEYS: log, meta, eids, snap, ckpt, clock (one match: one slot). Removes the match only while its log is empty.
const REMOVE_IF_EMPTY = new LuaScript(`
if redis.call('EXISTS', KEYS[2]) == 0 then return 'missing' end
if redis.call('XLEN', KEYS[1]) > 0 then return 'has-steps' end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
return 'removed'
`);

type StreamEntry = { id: string; message: Record<string, string> };

/** Match store over Redis Streams; safe to share between server instances. */
export class RedisStore extends RedisKeyspace implements MatchStore {
  readonly kind = 'redis' as const;

  /** Key of one part of a match; every part of one match shares the hash tag `{m:<id>}`, so one cluster slot. */
  key(id: string, part: 'log' | 'meta' | 'eids' | 'snap' | 'ckpt'): string {
    return matchKey(this.prefix, id, part);
  }
  private get indexKey(): string {
    return `${this.prefix}matches`;
  }

  async create(record: MatchRecord, snapshot: StoredSnapshot): Promise<void> {
    const created = await this.redis.hSetNX(this.key(record.id, 'meta'), 'tokenHash', record.tokenHash);
    if (!created) throw new Error(`match ${record.id} already exists`);
    await this.redis
      .multi()
      .hSet(this.key(record.id, 'meta'), {
        setup: JSON.stringify(record.setup),
        createdAt: String(record.createdAt),
        rulesVersion: String(record.rulesVersion),
      })
      .set(this.key(record.id, 'snap'), JSON.stringify(snapshot))
      .exec();
    await this.redis.zAdd(this.indexKey, { score: snapshot.summary.updatedAt, value: record.id });
  }

  async load(id: string): Promise<LoadedLog | null> {
    const meta = await this.redis.hGetAll(this.key(id, 'meta'));
    if (!meta.tokenHash || !meta.setup) return null;
    const entries = (await this.redis.xRange(this.key(id, 'log'), '-', '+')) as StreamEntry[];
    return { record: toRecord(id, meta), steps: entries.map(toStep) };
  }

  async open(id: string, tail: number): Promise<OpenedLog | null> {
    // Sent together (node-redis pipelines commands issued in the same tick): one round trip, then the range.
    const [meta, ckpt, len] = await Promise.all([
      this.redis.hGetAll(this.key(id, 'meta')),
      this.redis.get(this.key(id, 'ckpt')),
      this.redis.xLen(this.key(id, 'log')),
    ]);
    if (!meta.tokenHash || !meta.setup) return null;
    const { checkpoint, from } = openedRange(ckpt ? (JSON.parse(ckpt) as Checkpoint) : null, len, tail);
    return { record: toRecord(id, meta), checkpoint, steps: await this.stepsSince(id, from), from };
  }

  async stepsSince(id: string, version: number, upTo?: number): Promise<StoredStep[]> {
    const entries = (await this.redis.xRange(this.key(id, 'log'), `(${version}-0`, upTo === undefined ? '+' : `${upTo}-0`)) as StreamEntry[];
    return entries.map(toStep);
  }

  async versionOfStep(id: string, stepId: string): Promise<number | undefined> {
    const v = await this.redis.hGet(this.key(id, 'eids'), stepId);
    return v === null || v === undefined ? undefined : Number(v);
  }

  async saveCheckpoint(id: string, checkpoint: Checkpoint): Promise<void> {
    await this.redis.set(this.key(id, 'ckpt'), JSON.stringify(checkpoint));
  }

  /**
   * Compare-and-append (see `MatchStore.append`) in one Lua script over the match's slot: the step, its stepId,
   * the snapshot and, when carried, the checkpoint at the new version (the `ckpt` key) are written atomically.
   * The listing order (another slot) follows separately.
   */
  async append(id: string, expectedVersion: number, entry: StoredStep, snapshot: StoredSnapshot, extras?: AppendExtras): Promise<AppendResult> {
    const checkpoint = carriedCheckpoint(expectedVersion, extras);
    const reply = await APPEND.run(
      this.redis,
      [this.key(id, 'log'), this.key(id, 'eids'), this.key(id, 'snap'), this.key(id, 'meta'), this.key(id, 'ckpt')],
      [
        String(expectedVersion),
        entry.stepId,
        JSON.stringify(entry.step),
        String(entry.at),
        JSON.stringify(snapshot),
        checkpoint ? JSON.stringify(checkpoint) : '',
      ],
    );
    const [status, version] = reply as [string, number];
    if (status === 'missing') throw new Error(`match ${id} is not in the store`);
    if (status !== 'ok' && status !== 'duplicate' && status !== 'stale') throw new Error(`unexpected append reply ${status}`);
    // The listing order only (its key lives in another slot): not awaited, so the ack does not wait for it; a
    // later read through this instance is queued after it. A failure is mended by the match's next step.
    if (status === 'ok') this.redis.zAdd(this.indexKey, { score: entry.at, value: id }).catch(() => undefined);
    return { status, version: Number(version) };
  }

  async removeIfEmpty(id: string): Promise<RemoveResult> {
    const keys = [
      this.key(id, 'log'),
      this.key(id, 'meta'),
      this.key(id, 'eids'),
      this.key(id, 'snap'),
      this.key(id, 'ckpt'),
      matchKey(this.prefix, id, 'clock'),
    ];
    const reply = (await REMOVE_IF_EMPTY.run(this.redis, keys, [])) as string;
    if (reply !== 'removed' && reply !== 'has-steps' && reply !== 'missing') throw new Error(`unexpected remove reply ${reply}`);
    // The listing row lives in another slot: removed after (a crash in between leaves a row whose snapshot is gone, which `list` skips).
    if (reply !== 'has-steps') await this.redis.zRem(this.indexKey, id);
    return reply;
  }

  async list(limit: number): Promise<MatchSummary[]> {
    const ids = await this.redis.zRange(this.indexKey, 0, limit - 1, { REV: true });
    if (ids.length === 0) return [];
    // One GET per match (pipelined; on a cluster each goes to its match's node), not MGET across slots.
    const snaps = await Promise.all(ids.map((id) => this.redis.get(this.key(id, 'snap'))));
    return snaps.filter((s): s is string => typeof s === 'string').map((s) => (JSON.parse(s) as StoredSnapshot).summary);
  }

  /** The client belongs to the caller, who closes it. */
  async close(): Promise<void> {}
}

function toRecord(id: string, meta: Record<string, string>): MatchRecord {
  return {
    id,
    setup: JSON.parse(meta.setup!),
    tokenHash: meta.tokenHash!,
    createdAt: Number(meta.createdAt),
    rulesVersion: storedRulesVersion(meta.rulesVersion),
  };
}

function toStep(e: StreamEntry): StoredStep {
  return { stepId: e.message.e!, step: JSON.parse(e.message.s!) as Step, at: Number(e.message.t) };
}
