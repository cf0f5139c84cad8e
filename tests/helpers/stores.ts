/**
 * A match store for one suite, of either kind: the real Redis store under a fresh key prefix, or the file store
 * in a temporary directory. Call inside the suite's `describe`: opened before the suite, closed after it with
 * its keys or files deleted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { closeRedis, connectRedis, type Redis } from '../../server/storage/redis';
import { FileStore } from '../../server/storage/file-store';
import { RedisStore } from '../../server/storage/redis-store';
import type { MatchStore } from '../../server/storage/types';
import { dropPrefix, testPrefix } from './redis';

/** The store of kind `kind` for the suite named `suite` (the Redis at `redisUrl`); `store` is set once the suite runs. */
export function suiteStore(kind: 'redis' | 'file', suite: string, redisUrl: string): { readonly store: MatchStore } {
  let store: MatchStore | undefined;
  let client: Redis | null = null;
  let dir = '';
  const prefix = testPrefix(suite);
  beforeAll(async () => {
    if (kind === 'redis') {
      client = await connectRedis(redisUrl, pino({ level: 'silent' }), 'test');
      store = new RedisStore(client, prefix);
    } else {
      dir = mkdtempSync(join(tmpdir(), `cuecast-${suite}-`));
      const fs = new FileStore(dir);
      await fs.init();
      store = fs;
    }
  });
  afterAll(async () => {
    await store?.close();
    if (client) {
      await closeRedis(client);
      await dropPrefix(redisUrl, prefix);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get store(): MatchStore {
      if (!store) throw new Error(`the ${suite} store is opened when the suite runs`);
      return store;
    },
  };
}
