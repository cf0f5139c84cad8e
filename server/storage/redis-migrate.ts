/**
 * One-time move of the match keys of an earlier cuecast from the old layout `<prefix>m:<id>:<part>` to the
 * hash-tagged layout `<prefix>{m:<id>}:<part>` (redis-keyspace.ts `matchKey`), on one Redis (not a cluster:
 * RENAME needs both names in one slot there, and a cluster was never written in the old layout).
 *
 * - Which matches: every id of the listing `<prefix>matches` (every earlier version added each match to it in
 *   the same transaction as its set-up), read in pages of PAGE ids, the moves of a page sent together.
 * - Per match, one Lua script moves each part (log, meta, eids, snap, and a pre-release ckpt) whose old key
 *   exists and whose new key does not (RENAME): atomic, so two instances starting together never move a key
 *   twice or half-way, and running it again moves nothing. A part whose new key exists too is left where it
 *   is and reported (a clash: another writer of the same id in the new layout; an operator decides).
 * - When a pass has finished, `<prefix>layout` is set to LAYOUT; a later start reads only that key, so
 *   starting stays one GET once the data is moved.
 * Instances of an earlier version must be stopped first: they read and write the old names.
 */
import type { Logger } from 'pino';
import type { Redis } from './redis';
import { LuaScript, matchKey } from './redis-keyspace';

/** The key layout this server writes: 2 = hash-tagged match keys (1 = `<prefix>m:<id>:<part>`). */
export const LAYOUT = '2';
/** The parts of a match that had keys in the old layout. */
const PARTS = ['log', 'meta', 'eids', 'snap', 'ckpt'] as const;
/** Match ids read from the listing at a time. */
const PAGE = 500;

/** KEYS: the old names, then the new names in the same order. Returns {moved, clashes}. */
const MOVE = new LuaScript(`
local n = #KEYS / 2
local moved, clashes = 0, 0
for i = 1, n do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    if redis.call('EXISTS', KEYS[n + i]) == 1 then
      clashes = clashes + 1
    else
      redis.call('RENAME', KEYS[i], KEYS[n + i])
      moved = moved + 1
    end
  end
end
return {moved, clashes}
`);

/** Key of a part of match `id` in the old layout. */
export function legacyMatchKey(prefix: string, id: string, part: (typeof PARTS)[number]): string {
  return `${prefix}m:${id}:${part}`;
}

/** What a pass did: matches looked at, keys moved, ids with a part left in place because its new key exists. */
export interface Migration {
  matches: number;
  keys: number;
  clashes: string[];
}

/**
 * Move every listed match's old keys to the hash-tagged names, unless `<prefix>layout` says it was done.
 * Logs what it moved (info) and each clash (warn).
 * @returns what the pass did, or null when the layout was already current.
 * @throws when Redis fails mid-way (nothing is marked; the next start goes on where this one stopped).
 */
export async function migrateMatchKeys(redis: Redis, prefix: string, log: Logger): Promise<Migration | null> {
  const marker = `${prefix}layout`;
  if ((await redis.get(marker)) === LAYOUT) return null;
  const done: Migration = { matches: 0, keys: 0, clashes: [] };
  for (let from = 0; ; from += PAGE) {
    const ids = await redis.zRange(`${prefix}matches`, from, from + PAGE - 1);
    if (ids.length === 0) break;
    const replies = await Promise.all(
      ids.map((id) => MOVE.run(redis, [...PARTS.map((p) => legacyMatchKey(prefix, id, p)), ...PARTS.map((p) => matchKey(prefix, id, p))], [])),
    );
    replies.forEach((reply, i) => {
      const [moved, clashes] = reply as [number, number];
      done.keys += moved;
      if (clashes > 0) done.clashes.push(ids[i]!);
    });
    done.matches += ids.length;
    if (ids.length < PAGE) break;
  }
  await redis.set(marker, LAYOUT);
  for (const id of done.clashes) log.warn({ matchId: id }, 'match keys in both layouts: the old ones were left in place');
  log.info({ matches: done.matches, keysMoved: done.keys, clashes: done.clashes.length }, 'match keys moved to the hash-tagged layout');
  return done;
}
