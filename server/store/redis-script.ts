/**
 * A Lua script of a Redis store, run by its SHA1 (EVALSHA) and sent whole (EVAL) only on the first NOSCRIPT
 * of a node. On a Redis Cluster the client routes it by its first key; every script of the stores touches the
 * keys of one slot only (one hash tag).
 */
import { createHash } from 'node:crypto';
import type { Redis } from '../redis';

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

/**
 * The key prefix of a store, checked.
 * @throws when `prefix` has a `{` or `}` (it would take the place of the stores' own hash tags).
 */
export function checkedPrefix(prefix: string): string {
  if (/[{}]/.test(prefix)) throw new Error(`REDIS_PREFIX: "${prefix}" may not contain { or } (the stores hash-tag each match's and event's keys themselves)`);
  return prefix;
}

/** Key of one part of a match: every part of one match shares the hash tag `{m:<id>}`, so one cluster slot. */
export function matchKey(prefix: string, id: string, part: 'log' | 'meta' | 'eids' | 'snap' | 'event-links'): string {
  return `${prefix}{m:${id}}:${part}`;
}
