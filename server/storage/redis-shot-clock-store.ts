/**
 * Redis adapter of the shot clock port (server/storage/ports.ts), for one Redis or a Redis Cluster: the key
 * `<prefix>{m:<id>}:clock` (a JSON `ShotClockDoc`), in the match's slot; a write is one compare-and-set script
 * on the document's revision, so it is safe to share between instances.
 */
import type { ShotClockDoc, ShotClockStore } from './ports';
import { LuaScript, matchKey, RedisKeyspace } from './redis-keyspace';

/** Compare-and-set of a JSON document on its `revision` field (KEYS[1] the document; ARGV[1] expected revision, ARGV[2] the new document). */
const CAS = new LuaScript(`
local cur = redis.call('GET', KEYS[1])
local rev = 0
if cur then rev = cjson.decode(cur).revision end
if rev ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`);

/** Shot clocks over Redis; safe to share between server instances. */
export class RedisShotClockStore extends RedisKeyspace implements ShotClockStore {
  private key(matchId: string): string {
    return matchKey(this.prefix, matchId, 'clock');
  }

  async read(matchId: string): Promise<ShotClockDoc | null> {
    const text = await this.redis.get(this.key(matchId));
    return text === null ? null : (JSON.parse(text) as ShotClockDoc);
  }

  async write(matchId: string, doc: ShotClockDoc, expectedRevision: number): Promise<boolean> {
    return (await CAS.run(this.redis, [this.key(matchId)], [String(expectedRevision), JSON.stringify(doc)])) === 1;
  }
}
