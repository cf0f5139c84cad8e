/**
 * One contract, every backend: memory, SQLite (a real temporary directory), Redis (the real one, under a test
 * prefix) and a Redis Cluster of our own (tests/helpers/redis-cluster.ts) run the same suite of every storage
 * port (server/storage/ports.ts):
 * - matches: create (an existing id refused), compare-and-append (`ok`, `stale`, `duplicate`, nothing written
 *   by a refusal), the stepId index, `stepsSince`, checkpoints (saved on their own, or carried by the append of
 *   their version: kept with the step, never by a refused append) and `open`'s range, the listing newest first,
 *   unknown ids, removing a match only while its log is empty, and what is stored unchanged by the caller's
 *   later edits of the objects it passed;
 * - events: create (an existing id refused), compare-and-set (`stale` changes nothing), the match links, the
 *   listing newest first, unknown ids;
 * - sponsors: the logos (binary kept exactly, replaced, deleted);
 * - shot clocks: compare-and-set on the revision (a lost race changes nothing);
 * - webhooks: at most `max` per event, oldest first, a status beside each, removed with its hook;
 * - all of them read back by the backend opened again (a restart; on Redis, another connection).
 * The draw port's cases are tests/server/draw-store.test.ts, on the same four backends through the same helper. The Redis tournament store's link ordering
 * is tests/server/tournament-store.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { newMatch, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { summaryOf } from '../../server/matches/service';
import type { TournamentDoc } from '../../server/storage/ports';
import type { Checkpoint, MatchRecord, ShotClockDoc, StoredStep } from '../../server/storage/ports';
import { CLOCK_PRESETS, initialShotClock } from '../../shared/shot-clock';
import { requireRedis } from '../helpers/redis';
import { legalSteps, SETUP } from '../helpers/server';
import { storeKinds, suiteStores } from '../helpers/stores';

const redis = await requireRedis();
const setup = parseSetup(SETUP);
const state = view(newMatch(setup));
const steps = legalSteps(6);

const record = (id: string, createdAt = 1): MatchRecord => ({ id, setup, tokenHash: 'ab'.repeat(32), createdAt, rulesVersion: 2 });
const snap = (id: string, version: number, at: number) => ({ summary: summaryOf(id, state, version, at), state });
const event = (i: number, stepId = `e${i}`): StoredStep => ({ stepId, step: steps[i]!, at: 1000 + i });
/** A checkpoint at `version` (its `depth` tells two checkpoints of one version apart). */
const at = (version: number, depth = version): Checkpoint => ({
  format: 2,
  rulesVersion: 2,
  version,
  depth,
  core: newMatch(setup).core,
  stats: { sheet: [], open: [-1, -1], racks: [], tally: [], rackScored: 0, reracked: false, recent: [] } as never,
});

/** A shot clock document at `revision`. */
const clockDoc = (revision: number, status: 'idle' | 'running' = 'idle'): ShotClockDoc => ({
  settings: CLOCK_PRESETS.pro,
  clock: { ...initialShotClock(CLOCK_PRESETS.pro, state), status },
  revision,
});

/** A minimal event document at `version` listing `matches` on table `t1`, changed at `updatedAt`. */
function doc(id: string, version: number, matches: string[], updatedAt = 1000 + version): TournamentDoc {
  return {
    id,
    name: 'League',
    date: '2026-03-13',
    defaults: { discipline: '14-1' },
    theme: {},
    tables: [{ id: 't1', name: 'T1', current: null, next: null, cards: { show: null, matchId: null, seq: 0, captionHidden: false, auto: true } }],
    roster: [],
    matches: matches.map((m) => ({ id: m, table: 't1', players: ['A', 'B'], addedAt: 1, startedAt: null })),
    version,
    createdAt: 1,
    updatedAt,
    tokenHash: 'x',
    nextPlayer: 1,
  } as unknown as TournamentDoc;
}

describe.each(storeKinds(redis.available, ['memory', 'sqlite', 'redis', 'cluster']))('the %s backend keeps every storage port', (kind) => {
  const fixture = suiteStores(kind, `port-${kind}`, redis.url);

  it('creates a match once, and reads it back with an empty log', async () => {
    const { store } = fixture;
    await store.create(record('m1'), snap('m1', 0, 1));
    expect(await store.load('m1')).toEqual({ record: record('m1'), steps: [] });
    await expect(store.create(record('m1'), snap('m1', 0, 2))).rejects.toThrow();
    expect((await store.load('m1'))!.record).toEqual(record('m1'));
  });

  it('appends only at the expected version and dedupes stepIds; a refusal writes nothing', async () => {
    const { store } = fixture;
    await store.create(record('m2'), snap('m2', 0, 1));
    expect(await store.append('m2', 0, event(0), snap('m2', 1, 1000))).toEqual({ status: 'ok', version: 1 });
    expect(await store.append('m2', 0, event(1), snap('m2', 1, 1001))).toEqual({ status: 'stale', version: 1 });
    expect(await store.append('m2', 1, event(1, 'e0'), snap('m2', 2, 1001))).toEqual({ status: 'duplicate', version: 1 });
    expect(await store.append('m2', 1, event(1), snap('m2', 2, 1001))).toEqual({ status: 'ok', version: 2 });
    expect(await store.append('m2', 5, event(2), snap('m2', 6, 1002))).toEqual({ status: 'stale', version: 2 });
    expect((await store.load('m2'))!.steps).toEqual([event(0), event(1)]);
    expect(await store.versionOfStep('m2', 'e1')).toBe(2);
    expect(await store.versionOfStep('m2', 'e2')).toBeUndefined();
  });

  it('reads the log after a version, up to a version', async () => {
    const { store } = fixture;
    await store.create(record('m3'), snap('m3', 0, 1));
    for (let i = 0; i < 5; i++) expect(await store.append('m3', i, event(i), snap('m3', i + 1, 1000 + i))).toMatchObject({ status: 'ok' });
    expect(await store.stepsSince('m3', 2)).toEqual([event(2), event(3), event(4)]);
    expect(await store.stepsSince('m3', 1, 3)).toEqual([event(1), event(2)]);
    expect(await store.stepsSince('m3', 5)).toEqual([]);
  });

  it('keeps the latest checkpoint and opens from it, with at least the newest `tail` steps', async () => {
    const { store } = fixture;
    await store.create(record('m4'), snap('m4', 0, 1));
    for (let i = 0; i < 5; i++) await store.append('m4', i, event(i), snap('m4', i + 1, 1000 + i));
    // Without a checkpoint: the whole log.
    expect(await store.open('m4', 2)).toEqual({ record: record('m4'), checkpoint: null, steps: [0, 1, 2, 3, 4].map((i) => event(i)), from: 0 });
    await store.saveCheckpoint('m4', at(2));
    await store.saveCheckpoint('m4', at(4));
    expect(await store.open('m4', 1)).toEqual({ record: record('m4'), checkpoint: at(4), steps: [event(4)], from: 4 });
    expect(await store.open('m4', 3)).toEqual({ record: record('m4'), checkpoint: at(4), steps: [event(2), event(3), event(4)], from: 2 });
  });

  it('keeps the checkpoint an append carries with its step; a refused append (stale, duplicate, a checkpoint of another version) keeps neither', async () => {
    const { store } = fixture;
    await store.create(record('c1'), snap('c1', 0, 1));
    const first = at(1);
    expect(await store.append('c1', 0, event(0), snap('c1', 1, 1000), { checkpoint: first })).toEqual({ status: 'ok', version: 1 });
    (first as { depth: number }).depth = -1; // the caller's later edit changes nothing stored
    expect(await store.open('c1', 0)).toEqual({ record: record('c1'), checkpoint: at(1), steps: [], from: 1 });
    // Stale and duplicate: neither the step nor the checkpoint it carried.
    expect(await store.append('c1', 0, event(1), snap('c1', 1, 1001), { checkpoint: at(1, 99) })).toEqual({ status: 'stale', version: 1 });
    expect(await store.append('c1', 1, event(1, 'e0'), snap('c1', 2, 1001), { checkpoint: at(2) })).toEqual({ status: 'duplicate', version: 1 });
    // A checkpoint of another version than the one the append makes: rejected, naming both, nothing written.
    await expect(store.append('c1', 1, event(1), snap('c1', 2, 1001), { checkpoint: at(5) })).rejects.toThrow(
      /checkpoint: it is at version 5, but the append makes version 2/,
    );
    expect(await store.load('c1')).toEqual({ record: record('c1'), steps: [event(0)] });
    expect((await store.open('c1', 0))!.checkpoint).toEqual(at(1));
    expect(await store.versionOfStep('c1', 'e1')).toBeUndefined();
    expect((await store.list(100)).find((r) => r.id === 'c1')?.version).toBe(1);
    // The same step with its own version's checkpoint goes through; a later append without one keeps it.
    expect(await store.append('c1', 1, event(1), snap('c1', 2, 1001), { checkpoint: at(2) })).toEqual({ status: 'ok', version: 2 });
    expect(await store.append('c1', 2, event(2), snap('c1', 3, 1002))).toEqual({ status: 'ok', version: 3 });
    expect(await store.open('c1', 1)).toEqual({ record: record('c1'), checkpoint: at(2), steps: [event(2)], from: 2 });
  });

  it('lists matches newest first, at most `limit`', async () => {
    const { store } = fixture;
    await store.create(record('l1'), snap('l1', 0, 5_000_000));
    await store.create(record('l2'), snap('l2', 0, 5_000_001));
    await store.append('l1', 0, { ...event(0), at: 5_000_002 }, snap('l1', 1, 5_000_002));
    const rows = await store.list(2);
    expect(rows.map((r) => [r.id, r.version])).toEqual([
      ['l1', 1],
      ['l2', 0],
    ]);
  });

  it('removes a match only while its log is empty (removeIfEmpty), and lists it no more', async () => {
    const { store } = fixture;
    await store.create(record('r1'), snap('r1', 0, 6_000_000));
    await store.create(record('r2'), snap('r2', 0, 6_000_001));
    await store.append('r2', 0, event(0), snap('r2', 1, 6_000_002));
    expect(await store.removeIfEmpty!('r1')).toBe('removed');
    expect(await store.load('r1')).toBeNull();
    expect(await store.open('r1', 10)).toBeNull();
    expect(await store.removeIfEmpty!('r1')).toBe('missing');
    expect(await store.removeIfEmpty!('r2')).toBe('has-steps');
    expect((await store.load('r2'))!.steps).toEqual([event(0)]);
    const ids = (await store.list(100)).map((r) => r.id);
    expect(ids).toContain('r2');
    expect(ids).not.toContain('r1');
    // The id is free again, and a new match under it starts empty.
    await store.create(record('r1'), snap('r1', 0, 6_000_003));
    expect(await store.load('r1')).toEqual({ record: record('r1'), steps: [] });
  });

  it('answers for an unknown match without failing', async () => {
    const { store } = fixture;
    expect(await store.load('nobody')).toBeNull();
    expect(await store.open('nobody', 10)).toBeNull();
    expect(await store.stepsSince('nobody', 0)).toEqual([]);
    expect(await store.versionOfStep('nobody', 'e0')).toBeUndefined();
  });

  it("keeps what it was given: the caller's later edits change nothing stored", async () => {
    const { store } = fixture;
    const rec = { ...record('m5'), setup: structuredClone(setup) };
    await store.create(rec, snap('m5', 0, 1));
    const e = event(0);
    await store.append('m5', 0, e, snap('m5', 1, 1000));
    (rec.setup as { players: string[] }).players[0] = 'X';
    (e as { stepId: string }).stepId = 'changed';
    const read = await store.load('m5');
    expect(read!.record.setup.players).toEqual(['Ann', 'Bob']);
    expect(read!.steps).toEqual([event(0)]);
    (read!.steps[0] as { at: number }).at = -1;
    expect((await store.load('m5'))!.steps).toEqual([event(0)]);
  });

  it('creates an event once and replaces it only at the expected version; a stale save changes nothing', async () => {
    const { tournaments } = fixture;
    await tournaments.createTournament(doc('ev1', 0, []));
    expect(await tournaments.loadTournament('ev1')).toEqual(doc('ev1', 0, []));
    await expect(tournaments.createTournament(doc('ev1', 0, []))).rejects.toThrow();
    expect(await tournaments.saveTournament(doc('ev1', 1, ['m1']), 0, { linked: ['m1'], unlinked: [] })).toEqual({ status: 'ok', version: 1 });
    expect(await tournaments.saveTournament(doc('ev1', 1, []), 0, { linked: [], unlinked: ['m1'] })).toEqual({ status: 'stale', version: 1 });
    expect(await tournaments.loadTournament('ev1')).toEqual(doc('ev1', 1, ['m1']));
    expect(await tournaments.loadTournament('nobody')).toBeNull();
  });

  it('links the matches an event lists and unlinks those it drops; a match may be on several events', async () => {
    const { tournaments } = fixture;
    await tournaments.createTournament(doc('ev2', 0, ['lm1']));
    expect(await tournaments.tournamentsOfMatch('lm1')).toEqual(['ev2']);
    await tournaments.createTournament(doc('ev3', 0, ['lm1']));
    expect((await tournaments.tournamentsOfMatch('lm1')).sort()).toEqual(['ev2', 'ev3']);
    expect(await tournaments.saveTournament(doc('ev2', 1, ['lm2']), 0, { linked: ['lm2'], unlinked: ['lm1'] })).toMatchObject({ status: 'ok' });
    expect(await tournaments.tournamentsOfMatch('lm1')).toEqual(['ev3']);
    expect(await tournaments.tournamentsOfMatch('lm2')).toEqual(['ev2']);
    expect(await tournaments.tournamentsOfMatch('none')).toEqual([]);
  });

  it('lists events newest first, at most `limit`', async () => {
    const { tournaments } = fixture;
    await tournaments.createTournament(doc('new1', 0, [], 9_000_000_000_001));
    await tournaments.createTournament(doc('new2', 0, [], 9_000_000_000_002));
    expect((await tournaments.listTournaments(2)).map((r) => r.id)).toEqual(['new2', 'new1']);
  });

  it("keeps sponsors' logos byte for byte: stores, replaces, deletes; unknown ones are null; the caller's later edits change nothing", async () => {
    const { sponsors } = fixture;
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await sponsors.put('ev1', 'sA', { type: 'image/png', bytes: png });
    png[8] = 99;
    const got = await sponsors.load('ev1', 'sA');
    expect(got?.type).toBe('image/png');
    expect([...got!.bytes]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    // Every byte value survives (binary, not text), and a put replaces.
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await sponsors.put('ev1', 'sA', { type: 'image/webp', bytes: all });
    const replaced = await sponsors.load('ev1', 'sA');
    expect(replaced?.type).toBe('image/webp');
    expect(Buffer.compare(replaced!.bytes, all)).toBe(0);
    expect(await sponsors.load('ev1', 'sB')).toBeNull();
    expect(await sponsors.load('ev2', 'sA')).toBeNull();
    await sponsors.delete('ev1', 'sA');
    expect(await sponsors.load('ev1', 'sA')).toBeNull();
    await sponsors.delete('ev1', 'sA'); // nothing there: fine
  });

  it('keeps a shot clock by compare-and-set on its revision: a lost race is false and changes nothing; the backend opened again reads it', async () => {
    const { shotClocks: store } = fixture;
    const id = `m-${kind}-clock`;
    expect(await store.read(id)).toBeNull();
    expect(await store.write(id, clockDoc(2), 1)).toBe(false);
    expect(await store.write(id, clockDoc(1), 0)).toBe(true);
    expect(await store.write(id, clockDoc(1, 'running'), 0)).toBe(false);
    expect((await store.read(id))?.clock.status).toBe('idle');
    const racers = await Promise.all([store.write(id, clockDoc(2, 'running'), 1), store.write(id, clockDoc(2), 1)]);
    expect(racers.filter(Boolean)).toHaveLength(1);
    expect((await store.read(id))?.revision).toBe(2);
    expect(await (await fixture.reopen()).shotClocks.read(id)).toEqual(await store.read(id));
  });

  it('keeps webhooks per event: at most `max`, oldest first, a status beside each (kept only while the hook exists), removed with it; the backend opened again reads them', async () => {
    const hooks = fixture.ports.webhooks;
    const ev = `ev-${kind}-hooks`;
    const hook = (i: number) => ({ id: `h${i}`, url: `https://example.test/hook/${i}`, secret: `whsec_${i}`, createdAt: 1000 + i });
    expect(await hooks.list(ev)).toEqual([]);
    expect(await hooks.add(ev, hook(1), 2)).toBe(true);
    expect(await hooks.add(ev, hook(2), 2)).toBe(true);
    expect(await hooks.add(ev, hook(3), 2)).toBe(false);
    expect(await hooks.list(`${ev}-other`)).toEqual([]);
    const fresh = { lastSuccess: null, lastAttempt: null, consecutiveFailures: 0, lastError: null, dropped: 0 };
    expect(await hooks.list(ev)).toEqual([
      { ...hook(1), status: fresh },
      { ...hook(2), status: fresh },
    ]);
    const failing = { lastSuccess: 5, lastAttempt: 9, consecutiveFailures: 3, lastError: 'HTTP 500', dropped: 1 };
    await hooks.setStatus(ev, 'h2', failing);
    await hooks.setStatus(ev, 'h9', failing); // no such hook: nothing kept
    expect((await hooks.list(ev)).map((h) => h.status)).toEqual([fresh, failing]);
    const again = await fixture.reopen();
    expect(await again.webhooks.list(ev)).toEqual(await hooks.list(ev));
    expect(await hooks.remove(ev, 'h1')).toBe(true);
    expect(await hooks.remove(ev, 'h1')).toBe(false);
    expect(await hooks.add(ev, hook(3), 2)).toBe(true);
    expect((await hooks.list(ev)).map((h) => [h.id, h.status.consecutiveFailures])).toEqual([
      ['h2', 3],
      ['h3', 0],
    ]);
    // A hook removed and registered again under its id starts with a fresh status.
    await hooks.remove(ev, 'h2');
    expect(await hooks.add(ev, hook(2), 2)).toBe(true);
    expect((await hooks.list(ev)).find((h) => h.id === 'h2')?.status).toEqual(fresh);
  });

  it('the backend opened again (a restart, another instance) reads every port as it was left', async () => {
    const { store, tournaments, sponsors } = fixture;
    await store.create(record('re1'), snap('re1', 0, 1));
    await store.append('re1', 0, event(0), snap('re1', 1, 1000));
    await tournaments.createTournament(doc('re-ev', 0, ['re1']));
    await sponsors.put('re-ev', 's1', { type: 'image/png', bytes: Buffer.from([1, 2, 3]) });
    const again = await fixture.reopen();
    expect(await again.matches.load('re1')).toEqual({ record: record('re1'), steps: [event(0)] });
    expect(await again.tournaments.loadTournament('re-ev')).toEqual(doc('re-ev', 0, ['re1']));
    expect(await again.tournaments.tournamentsOfMatch('re1')).toEqual(['re-ev']);
    expect([...(await again.sponsors.load('re-ev', 's1'))!.bytes]).toEqual([1, 2, 3]);
  });
});
