/**
 * The storage backends for one suite, of any kind: the real Redis under a fresh key prefix, a Redis Cluster of
 * our own (tests/helpers/redis-cluster.ts), the SQLite database (the embedded mode) in a temporary directory on
 * a real disk, or memory. Call inside the suite's `describe`: opened before the suite, closed after it with its
 * keys, nodes or files deleted. `storeKinds` lists the kinds a suite runs on (Redis only when it answers, the
 * Cluster only when asked for and its binaries are installed); the contract suite
 * (tests/server/store-port.test.ts) runs every port of every kind through one contract.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { closeRedis, connectRedis, connectRedisCluster, type Redis, type RedisCluster } from '../../server/storage/redis';
import type { TournamentStore, MatchStore, ShotClockStore, SponsorStore, StoragePorts } from '../../server/storage/ports';
import { memoryStorage } from '../../server/storage/memory-store';
import { redisStorage } from '../../server/storage/redis-storage';
import { SqliteDb } from '../../server/storage/sqlite-store';
import { dropPrefix, testPrefix } from './redis';
import { requireRedisCluster, spawnRedisCluster, type RedisClusterHandle } from './redis-cluster';

export type StoreKind = 'redis' | 'cluster' | 'sqlite' | 'memory';

/**
 * The kinds among `wanted` (default Redis, SQLite, memory) a suite can run on: Redis only when `redisAvailable`
 * (requireRedis decides), the Cluster only when its binaries are there (requireRedisCluster decides).
 */
export function storeKinds(redisAvailable: boolean, wanted: readonly StoreKind[] = ['redis', 'sqlite', 'memory']): StoreKind[] {
  return wanted.filter((k) => (k !== 'redis' || redisAvailable) && (k !== 'cluster' || requireRedisCluster()));
}

/** A suite's backend: its ports (and each port by name), once the suite runs. */
export interface SuiteStores {
  /** The Redis key prefix (Redis and Cluster kinds). */
  readonly prefix: string;
  /** The data directory (SQLite kind), once the suite runs. */
  readonly dir: string;
  /** The SQLite database (SQLite kind), once the suite runs. */
  readonly sqlite: SqliteDb | null;
  readonly ports: StoragePorts;
  readonly store: MatchStore;
  readonly tournaments: TournamentStore;
  readonly shotClocks: ShotClockStore;
  readonly sponsors: SponsorStore;
  /** The same backend opened a second time (a restart; another instance on Redis); closed with the suite. */
  reopen(): Promise<StoragePorts>;
}

/** The backend of kind `kind` for the suite named `suite` (the Redis at `redisUrl`); set once the suite runs. */
export function suiteStores(kind: StoreKind, suite: string, redisUrl: string): SuiteStores {
  let ports: StoragePorts | undefined;
  let sqlite: SqliteDb | null = null;
  const clients: (Redis | RedisCluster)[] = [];
  const opened: StoragePorts[] = [];
  let cluster: RedisClusterHandle | null = null;
  let dir = '';
  const prefix = testPrefix(suite);
  const open = async (): Promise<StoragePorts> => {
    const log = pino({ level: 'silent' });
    if (kind === 'redis') {
      const client = await connectRedis(redisUrl, log, 'test');
      clients.push(client);
      return redisStorage(client, prefix);
    }
    if (kind === 'cluster') {
      cluster ??= await spawnRedisCluster();
      const client = await connectRedisCluster(cluster.urls, log, 'test');
      clients.push(client);
      return redisStorage(client, prefix);
    }
    if (kind === 'sqlite') {
      dir ||= mkdtempSync(join(tmpdir(), `cuecast-${suite}-`));
      const db = new SqliteDb(dir);
      sqlite ??= db;
      return db.ports;
    }
    return memoryStorage();
  };
  beforeAll(async () => {
    ports = await open();
  });
  afterAll(async () => {
    for (const p of [ports, ...opened]) await p?.close();
    await Promise.all(clients.map(closeRedis));
    if (kind === 'redis') await dropPrefix(redisUrl, prefix);
    await cluster?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const get = () => {
    if (!ports) throw new Error(`the ${suite} stores are opened when the suite runs`);
    return ports;
  };
  return {
    prefix,
    get dir(): string {
      return dir;
    },
    get sqlite(): SqliteDb | null {
      return sqlite;
    },
    get ports(): StoragePorts {
      return get();
    },
    get store(): MatchStore {
      return get().matches;
    },
    get tournaments(): TournamentStore {
      return get().tournaments;
    },
    get shotClocks(): ShotClockStore {
      return get().shotClocks;
    },
    get sponsors(): SponsorStore {
      return get().sponsors;
    },
    async reopen(): Promise<StoragePorts> {
      if (kind === 'memory') return get();
      const again = await open();
      opened.push(again);
      return again;
    },
  };
}

/** The match store of kind `kind` for the suite named `suite` (see `suiteStores`). */
export function suiteStore(kind: StoreKind, suite: string, redisUrl: string): { readonly store: MatchStore } {
  return suiteStores(kind, suite, redisUrl);
}
