/**
 * The draw store's contract (server/storage/draw-store.ts), run against the draw port of every backend as the
 * services open it (StoragePorts.draws, tests/helpers/stores.ts): memory, SQLite on a real disk (a temporary
 * directory), the real Redis (127.0.0.1:6379 under a test prefix) and a Redis Cluster of our own (Redis and the
 * Cluster skipped with a message when they cannot run, failed under CI=true). Create once (or replace at the stored
 * version), change by compare-and-set (entries appended in order, settings replaced, together), stale answers
 * change nothing, and the backend opened again reads the same draw.
 */
import { describe, expect, it } from 'vitest';
import { initialSettings, type DrawStore } from '../../server/storage/draw-store';
import type { DrawDefinition, DrawEntry } from '../../shared/draw/types';
import { requireRedis } from '../helpers/redis';
import { storeKinds, suiteStores } from '../helpers/stores';

const redis = await requireRedis();
const DEF: DrawDefinition = {
  format: 'single',
  players: [{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }],
  seeding: { by: 'random', seed: 7 },
  races: { default: 100 },
};
const E1: DrawEntry = { t: 'start', match: 'R1-2', table: 'table-1', matchId: 'abc' };
const E2: DrawEntry = { t: 'result', match: 'R1-2', winner: 'p2', kind: 'win', score: [100, 42], innings: 12, highRun: [31, 14] };

describe.each(storeKinds(redis.available, ['memory', 'sqlite', 'redis', 'cluster']))('draw store: %s', (kind) => {
  const fixture = suiteStores(kind, `draw-store-${kind}`, redis.url);
  /** The backend's draw port (StoragePorts.draws), as the services use it. */
  const store = (): DrawStore => fixture.ports.draws;
  let n = 0;
  const eventId = () => `ev${++n}`;

  it('creates a draw once, at version 0, with no entries; a second create is stale', async () => {
    const id = eventId();
    expect(await store().load(id)).toBeNull();
    expect(await store().create({ eventId: id, definition: DEF, settings: initialSettings('tv'), createdAt: 1000 })).toEqual({ status: 'ok', version: 0 });
    expect(await store().load(id)).toEqual({ eventId: id, definition: DEF, settings: initialSettings('tv'), entries: [], version: 0, createdAt: 1000 });
    expect(await store().create({ eventId: id, definition: { ...DEF, races: { default: 5 } }, settings: initialSettings(), createdAt: 2000 })).toEqual({
      status: 'stale',
      version: 0,
    });
    expect((await store().load(id))!.definition).toEqual(DEF);
  });

  it('appends entries in order and replaces the settings by compare-and-set; a stale change changes nothing', async () => {
    const id = eventId();
    await store().create({ eventId: id, definition: DEF, settings: initialSettings(), createdAt: 1 });
    expect(await store().change(id, 0, { entries: [E1] })).toEqual({ status: 'ok', version: 1 });
    const settings = { autopilot: true, pins: { 'R2-1': 'tv' }, featured: ['F'], tvTable: 'tv' };
    expect(await store().change(id, 1, { entries: [E2], settings })).toEqual({ status: 'ok', version: 2 });
    expect(await store().change(id, 1, { entries: [E1], settings: initialSettings() })).toEqual({ status: 'stale', version: 2 });
    expect(await store().change('nope', 0, { entries: [E1] })).toEqual({ status: 'stale', version: -1 });
    const doc = (await store().load(id))!;
    expect(doc).toMatchObject({ version: 2, entries: [E1, E2], settings });
    expect(await store().change(id, 2, { settings: initialSettings() })).toEqual({ status: 'ok', version: 3 });
    expect((await store().load(id))!.entries).toEqual([E1, E2]);
  });

  it('replaces a draw only at its stored version (a cancelled draw), dropping its entries', async () => {
    const id = eventId();
    await store().create({ eventId: id, definition: DEF, settings: initialSettings(), createdAt: 1 });
    await store().change(id, 0, { entries: [E1, E2] });
    const other = { ...DEF, format: 'double' as const };
    expect(await store().create({ eventId: id, definition: other, settings: initialSettings(), createdAt: 2 }, 0)).toEqual({ status: 'stale', version: 1 });
    expect(await store().create({ eventId: eventId(), definition: other, settings: initialSettings(), createdAt: 2 }, 0)).toEqual({
      status: 'stale',
      version: -1,
    });
    expect(await store().create({ eventId: id, definition: other, settings: initialSettings(), createdAt: 2 }, 1)).toEqual({ status: 'ok', version: 0 });
    expect(await store().load(id)).toMatchObject({ definition: other, entries: [], version: 0, createdAt: 2 });
  });

  it('concurrent changes at one version: exactly one goes through', async () => {
    const id = eventId();
    await store().create({ eventId: id, definition: DEF, settings: initialSettings(), createdAt: 1 });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store().change(id, 0, { entries: [{ t: 'race', round: 'F', race: 10 + i }] })));
    expect(results.filter((r) => r.status === 'ok')).toHaveLength(1);
    expect((await store().load(id))!.entries).toHaveLength(1);
  });

  it('is read back by the backend opened again (a restart; on Redis another connection)', async () => {
    const id = eventId();
    await store().create({ eventId: id, definition: DEF, settings: initialSettings('tv'), createdAt: 5 });
    await store().change(id, 0, { entries: [E1, E2] });
    const again = (await fixture.reopen()).draws;
    expect(await again.load(id)).toEqual({ eventId: id, definition: DEF, settings: initialSettings('tv'), entries: [E1, E2], version: 1, createdAt: 5 });
    expect(await again.change(id, 0, { entries: [E1] })).toEqual({ status: 'stale', version: 1 });
  });
});
