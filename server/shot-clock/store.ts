/**
 * Where a match's shot clock is kept (issue: shot clock): one small document per match — its settings, the
 * clock state and a revision — beside the match in the same store, so a restart, a reload or another instance
 * sees the same clock. Never part of the step log: clock actions change neither the rules' state nor the score
 * sheet. Writes are compare-and-set on the revision, so two instances pressing at once cannot lose a press.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ShotClock, ShotClockSettings } from '../../shared/shot-clock';
import { writeDurably } from '../storage/durable';
import type { Redis, RedisCluster } from '../storage/redis';
import { LuaScript, matchKey } from '../storage/redis-keyspace';

/**
 * A match's stored shot clock: settings (null: turned off, the state kept so extensions used are remembered if
 * it is turned on again), state, and the revision every write increments (1 for the first).
 */
export interface ShotClockDoc {
  settings: ShotClockSettings | null;
  clock: ShotClock;
  revision: number;
}

/** The port: read a match's clock document, and write one if the stored revision is still `expectedRevision` (0: none stored). */
export interface ShotClockStore {
  /** The stored document, or null when the match has no clock. */
  read(matchId: string): Promise<ShotClockDoc | null>;
  /**
   * Store `doc` (whose `revision` must be `expectedRevision + 1`) if the stored revision is `expectedRevision`;
   * false when another write came first (read again and decide again). Durable before it resolves true.
   */
  write(matchId: string, doc: ShotClockDoc, expectedRevision: number): Promise<boolean>;
}

/** In memory, for tests and one-process tools. */
export class MemoryShotClockStore implements ShotClockStore {
  private readonly docs = new Map<string, string>();

  async read(matchId: string): Promise<ShotClockDoc | null> {
    const text = this.docs.get(matchId);
    return text === undefined ? null : (JSON.parse(text) as ShotClockDoc);
  }

  async write(matchId: string, doc: ShotClockDoc, expectedRevision: number): Promise<boolean> {
    // Checked and set in one synchronous run: no other write can come between.
    const current = this.docs.get(matchId);
    const revision = current === undefined ? 0 : (JSON.parse(current) as ShotClockDoc).revision;
    if (revision !== expectedRevision) return false;
    this.docs.set(matchId, JSON.stringify(doc));
    return true;
  }
}

/** How many matches' clock documents (or "no clock") the file store keeps in memory, most recently used first. */
export const FILE_CLOCK_CACHE_ENTRIES = 4096;

/**
 * Embedded mode: one JSON file per match under `<dataDir>/clocks/`, replaced atomically and durably. One process
 * owns the folder, so writes of a match run one at a time and what it last read or wrote is what the file holds:
 * the last FILE_CLOCK_CACHE_ENTRIES documents (and the matches found without one) are answered from memory, so a
 * recorded step does not read a file to learn the match has no clock.
 */
export class FileShotClockStore implements ShotClockStore {
  private readonly dir: string;
  private ready: Promise<unknown> | null = null;
  private readonly queues = new Map<string, Promise<unknown>>();
  /** The file's text by match id (null: no file), least recently used first. */
  private readonly known = new Map<string, string | null>();

  constructor(dataDir: string, private readonly cacheEntries = FILE_CLOCK_CACHE_ENTRIES) {
    this.dir = join(dataDir, 'clocks');
  }

  private path(matchId: string): string {
    return join(this.dir, `${matchId}.json`);
  }

  private remember(matchId: string, text: string | null): void {
    this.known.delete(matchId);
    this.known.set(matchId, text);
    if (this.known.size > this.cacheEntries) this.known.delete(this.known.keys().next().value!);
  }

  private async readText(matchId: string): Promise<string | null> {
    const cached = this.known.get(matchId);
    if (cached !== undefined) {
      this.remember(matchId, cached);
      return cached;
    }
    let text: string | null;
    try {
      text = await readFile(this.path(matchId), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      text = null;
    }
    // A write that finished while the file was read wins: keep its text, not the older one read.
    if (!this.known.has(matchId)) this.remember(matchId, text);
    return this.known.get(matchId) ?? null;
  }

  async read(matchId: string): Promise<ShotClockDoc | null> {
    const text = await this.readText(matchId);
    return text === null ? null : (JSON.parse(text) as ShotClockDoc);
  }

  write(matchId: string, doc: ShotClockDoc, expectedRevision: number): Promise<boolean> {
    const run = async () => {
      this.ready ??= mkdir(this.dir, { recursive: true });
      await this.ready;
      const current = await this.read(matchId);
      if ((current?.revision ?? 0) !== expectedRevision) return false;
      const text = JSON.stringify(doc);
      try {
        await writeDurably(this.dir, this.path(matchId), text);
      } catch (err) {
        this.known.delete(matchId); // the file may or may not have been replaced: read it again next time
        throw err;
      }
      this.remember(matchId, text);
      return true;
    };
    const next = (this.queues.get(matchId) ?? Promise.resolve()).then(run, run);
    const settled = next.catch(() => undefined);
    this.queues.set(matchId, settled);
    void settled.then(() => { if (this.queues.get(matchId) === settled) this.queues.delete(matchId); });
    return next;
  }
}

/** Compare-and-set of a JSON document on its `revision` field (KEYS[1] the document; ARGV[1] expected revision, ARGV[2] the new document). */
const CAS = new LuaScript(`
local cur = redis.call('GET', KEYS[1])
local rev = 0
if cur then rev = cjson.decode(cur).revision end
if rev ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`);

/** Redis (one or a Cluster): the key `<prefix>{m:<id>}:clock`, in the match's slot; safe to share between instances. */
export class RedisShotClockStore implements ShotClockStore {
  private readonly redis: Redis;

  constructor(client: Redis | RedisCluster, private readonly prefix = 'cuecast:') {
    this.redis = client as Redis;
  }

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
