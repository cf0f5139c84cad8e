/**
 * The stores for one suite, of any kind: the real Redis stores under a fresh key prefix, the SQLite store (the
 * embedded mode) or the older file stores in a temporary directory, or the in-memory stores. Call inside the suite's `describe`: opened before the suite,
 * closed after it with their keys or files deleted. `storeKinds` lists the kinds a suite runs on (Redis only
 * when it answers); the store-port suite (tests/server/store-port.test.ts) runs every kind through one contract.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { closeRedis, connectRedis, type Redis } from '../../server/storage/redis';
import type { EventStore } from '../../server/storage/event-store';
import { FileEventStore } from '../../server/storage/file-event-store';
import { FileStore } from '../../server/storage/file-store';
import { MemoryEventStore, MemoryStore } from '../../server/storage/memory-store';
import { RedisEventStore } from '../../server/storage/redis-event-store';
import { RedisStore } from '../../server/storage/redis-store';
import { SqliteDb } from '../../server/storage/sqlite-store';
import type { MatchStore } from '../../server/storage/types';
import { dropPrefix, testPrefix } from './redis';

export type StoreKind = 'redis' | 'sqlite' | 'file' | 'memory';

/** The kinds among `wanted` a suite can run on: Redis only when `redisAvailable` (requireRedis decides). */
export function storeKinds(redisAvailable: boolean, wanted: readonly StoreKind[] = ['redis', 'sqlite', 'file', 'memory']): StoreKind[] {
  return wanted.filter((k) => k !== 'redis' || redisAvailable);
}

/** The match and event stores of kind `kind` for the suite named `suite` (the Redis at `redisUrl`); set once the suite runs. */
export function suiteStores(kind: StoreKind, suite: string, redisUrl: string): { readonly store: MatchStore; readonly events: EventStore; readonly prefix: string; readonly dir: string } {
  let stores: { store: MatchStore; events: EventStore } | undefined;
  let client: Redis | null = null;
  let dir = '';
  const prefix = testPrefix(suite);
  beforeAll(async () => {
    if (kind === 'redis') {
      client = await connectRedis(redisUrl, pino({ level: 'silent' }), 'test');
      stores = { store: new RedisStore(client, prefix), events: new RedisEventStore(client, prefix) };
    } else if (kind === 'sqlite') {
      dir = mkdtempSync(join(tmpdir(), `cuecast-${suite}-`));
      const db = new SqliteDb(dir);
      stores = { store: db.matches, events: db.events };
    } else if (kind === 'file') {
      dir = mkdtempSync(join(tmpdir(), `cuecast-${suite}-`));
      const fs = new FileStore(dir);
      const fe = new FileEventStore(dir);
      await Promise.all([fs.init(), fe.init()]);
      stores = { store: fs, events: fe };
    } else {
      stores = { store: new MemoryStore(), events: new MemoryEventStore() };
    }
  });
  afterAll(async () => {
    await stores?.store.close();
    await stores?.events.close();
    if (client) {
      await closeRedis(client);
      await dropPrefix(redisUrl, prefix);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const opened = () => {
    if (!stores) throw new Error(`the ${suite} stores are opened when the suite runs`);
    return stores;
  };
  return {
    /** The Redis key prefix (Redis kind). */
    prefix,
    /** The data directory (SQLite and file kinds), once the suite runs. */
    get dir(): string {
      return dir;
    },
    get store(): MatchStore {
      return opened().store;
    },
    get events(): EventStore {
      return opened().events;
    },
  };
}

/** The match store of kind `kind` for the suite named `suite` (see `suiteStores`). */
export function suiteStore(kind: StoreKind, suite: string, redisUrl: string): { readonly store: MatchStore } {
  return suiteStores(kind, suite, redisUrl);
}
