/**
 * What the Redis stores (matches, tournaments, shot clocks, sponsors' logos) share, on one Redis or a Redis Cluster: the client and the
 * checked key prefix (`RedisKeyspace`), the hash-tagged key of a match's parts (`matchKey`), and their Lua
 * scripts (`LuaScript`). Every command and script of the stores touches the keys of one cluster slot.
 */
import { createHash } from 'node:crypto';
import type { Redis, RedisCluster } from './redis';

/** A Lua script, run by its SHA1 (EVALSHA) and sent whole (EVAL) only on a node's first NOSCRIPT; a cluster client routes it by its first key. */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Run with `keys` (KEYS[1..]) and `args` (ARGV[1..]); resolves with the script's reply.
   * @throws what Redis answers other than NOSCRIPT (e.g. CROSSSLOT, a connection error).
   */
  async run(redis: Redis, keys: string[], args: string[]): Promise<unknown> {
    const opts = { keys, arguments: args };
    try {
      return await redis.evalSha(this.sha, opts);
    } catch (err) {
      if (!String((err as Error).message).includes('NOSCRIPT')) throw err;
      return redis.eval(this.source, opts);
    }
  }
}

/** The client and key prefix of a Redis store. */
export abstract class RedisKeyspace {
  protected readonly redis: Redis;
  protected readonly prefix: string;
  /**
   * @param client one Redis, or a Redis Cluster (every command a store uses takes keys of one slot).
   * @throws when `prefix` has a `{` or `}` (it would take the place of the stores' own hash tags).
   */
  constructor(client: Redis | RedisCluster, prefix = 'cuecast:') {
    if (/[{}]/.test(prefix)) throw new Error(`REDIS_PREFIX: "${prefix}" may not contain { or } (the stores hash-tag each match's and event's keys themselves)`);
    this.prefix = prefix;
    // The commands used here have the same signatures on both clients (a cluster routes each by its key).
    this.redis = client as Redis;
  }
}

/** Key of one part of a match: every part of one match shares the hash tag `{m:<id>}`, so one cluster slot. */
export function matchKey(prefix: string, id: string, part: 'log' | 'meta' | 'eids' | 'snap' | 'ckpt' | 'event-links' | 'clock'): string {
  return `${prefix}{m:${id}}:${part}`;
}
