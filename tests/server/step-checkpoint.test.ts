/**
 * A step and the checkpoint due at its version are stored together (issue 19, embedded mode on SQLite):
 * - on every store (Redis, SQLite, memory): when the CHECKPOINT_EVERY-th record is answered, its checkpoint
 *   is stored already (it travels with the append; no write after the answer), with the hash of the replayed state;
 * - on the SQLite store (real disk, real better-sqlite3): a failure injected at any of the append's writes (the
 *   step row, the match's version and listing row, the checkpoint; a trigger that RAISEs) refuses the step with
 *   `store-unavailable` (the refusal's cause `store-error`) and leaves neither the step nor the checkpoint: the
 *   live and stored versions stay, another connection to the file sees the match as before, the same step
 *   records once the cause is gone, with its checkpoint, and a restart (a new store on the same file) loads a
 *   consistent match.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { replay, statsOf, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { CHECKPOINT_EVERY, LiveCache } from '../../server/matches/live-cache';
import { MatchService } from '../../server/matches/service';
import { matchHash, stateHashOf } from '../../server/matches/state-hash';
import { SqliteDb } from '../../server/storage/sqlite-store';
import { StoreRefusal } from '../../server/storage/store-errors';
import type { MatchStore } from '../../server/storage/ports';
import { requireRedis } from '../helpers/redis';
import { LONG_SETUP, plausibleSteps } from '../helpers/server';
import { storeKinds, suiteStore } from '../helpers/stores';

const redis = await requireRedis();
const setup = parseSetup(LONG_SETUP);
const silent = pino({ level: 'silent' });

/** A match service over `store` with its own live cache (returned too, to inspect the loaded match). */
function service(store: MatchStore, shared = false) {
  const live = new LiveCache({ store, shared, log: silent });
  return { live, svc: new MatchService({ store, log: silent, shared, onAppended: () => undefined, live }) };
}

/** Record `steps` (stepIds e1…), each at its expected version; throws on a refusal. */
async function recordAll(svc: MatchService, id: string, token: string, steps: readonly unknown[], from = 0): Promise<void> {
  for (const [i, step] of steps.entries()) {
    const r = await svc.record(id, token, { stepId: `e${from + i + 1}`, expectedVersion: from + i, step });
    if (!r.ok) throw new Error(`step ${from + i + 1} refused: ${JSON.stringify(r.error)}`);
  }
}

describe.each(storeKinds(redis.available))('the %s store: the checkpoint due at a version is stored by that version’s append', (kind) => {
  const fixture = suiteStore(kind, 'stepck', redis.url);

  it(`is there as soon as step ${CHECKPOINT_EVERY} is answered, not before it, with the hash of the replayed state`, async () => {
    const { svc } = service(fixture.store, kind === 'redis');
    const m = await svc.create(LONG_SETUP);
    const steps = plausibleSteps(CHECKPOINT_EVERY + 3, LONG_SETUP, { seed: 41, undoRate: 0.03 });
    await recordAll(svc, m.id, m.scorerToken, steps.slice(0, CHECKPOINT_EVERY - 1));
    expect((await fixture.store.open(m.id, 0))!.checkpoint).toBeNull();
    await recordAll(svc, m.id, m.scorerToken, steps.slice(CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY), CHECKPOINT_EVERY - 1);
    // Read right after the answer, without yielding to the event loop's later phases: no write is left to come.
    const ck = (await fixture.store.open(m.id, 0))!.checkpoint!;
    expect(ck).not.toBeNull();
    expect(ck.version).toBe(CHECKPOINT_EVERY);
    expect(ck.hash).toBe(stateHashOf(ck.depth, ck.core, ck.stats));
    expect(ck.hash).toBe(matchHash(replay(setup, steps.slice(0, CHECKPOINT_EVERY))));
    // The steps after it do not replace it.
    await recordAll(svc, m.id, m.scorerToken, steps.slice(CHECKPOINT_EVERY), CHECKPOINT_EVERY);
    expect((await fixture.store.open(m.id, 0))!.checkpoint).toEqual(ck);
  });
});

describe('the SQLite store: a failure between the writes of an append leaves neither the step nor its checkpoint', () => {
  const dirs: string[] = [];
  const dbs: SqliteDb[] = [];
  afterEach(() => {
    for (const db of dbs.splice(0)) db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** A database in a fresh temporary directory (closed and deleted after the test), or another connection to `dir`'s. */
  function openDb(dir?: string): SqliteDb {
    if (!dir) dirs.push((dir = mkdtempSync(join(tmpdir(), 'cuecast-stepck-'))));
    const db = new SqliteDb(dir);
    dbs.push(db);
    return db;
  }

  // One fault per write of the append's transaction; each fires only on the append that makes version CHECKPOINT_EVERY.
  const faults = [
    [
      'the step row',
      `CREATE TRIGGER inject BEFORE INSERT ON steps WHEN NEW.version = ${CHECKPOINT_EVERY} BEGIN SELECT RAISE(ABORT, 'injected: step row'); END`,
    ],
    [
      'the version and listing row',
      `CREATE TRIGGER inject BEFORE UPDATE OF version ON matches WHEN NEW.version = ${CHECKPOINT_EVERY} BEGIN SELECT RAISE(ABORT, 'injected: version'); END`,
    ],
    ['the checkpoint', `CREATE TRIGGER inject BEFORE UPDATE OF checkpoint ON matches BEGIN SELECT RAISE(ABORT, 'injected: checkpoint'); END`],
  ] as const;

  it.each(faults)(
    'a failure at %s: refused, nothing stored, recorded on the retry with its checkpoint, consistent after a restart',
    async (_where, trigger) => {
      const db = openDb();
      const { svc, live } = service(db.matches);
      const m = await svc.create(LONG_SETUP);
      const steps = plausibleSteps(CHECKPOINT_EVERY, LONG_SETUP, { seed: 42, undoRate: 0.03 });
      await recordAll(svc, m.id, m.scorerToken, steps.slice(0, -1));
      const before = (await svc.current(m.id))!.snapshot;
      db.db.exec(trigger);

      const last = { stepId: `e${CHECKPOINT_EVERY}`, expectedVersion: CHECKPOINT_EVERY - 1, step: steps.at(-1)! };
      const refused = await svc.record(m.id, m.scorerToken, last);
      expect(refused).toMatchObject({ ok: false, error: { code: 'store-unavailable' } });
      expect(!refused.ok && refused.error.message).toMatch(/\(store-error\): nothing was recorded/);
      expect(db.health.detail().refusing).toMatchObject({ cause: 'store-error', message: expect.stringContaining('injected') });
      // Nothing moved: the loaded match, the stored log, its checkpoint, the stepId index and the listing row.
      expect((await live.inspect(m.id))!.version).toBe(CHECKPOINT_EVERY - 1);
      expect((await svc.current(m.id))!.snapshot).toEqual(before);
      const reader = openDb(db.dir);
      const seen = (await reader.matches.open(m.id, 0))!;
      expect(seen.checkpoint).toBeNull();
      expect(seen.steps).toHaveLength(CHECKPOINT_EVERY - 1);
      expect(await reader.matches.versionOfStep(m.id, last.stepId)).toBeUndefined();
      expect((await reader.matches.list(10)).find((r) => r.id === m.id)?.version).toBe(CHECKPOINT_EVERY - 1);

      // The cause gone, the same step records (once), its checkpoint with it.
      db.db.exec('DROP TRIGGER inject');
      const recorded = await svc.record(m.id, m.scorerToken, last);
      expect(recorded).toMatchObject({ ok: true, version: CHECKPOINT_EVERY, duplicate: false });
      expect(db.health.failing).toBe(false);
      const ck = (await reader.matches.open(m.id, 0))!.checkpoint!;
      expect(ck.version).toBe(CHECKPOINT_EVERY);
      expect(ck.hash).toBe(matchHash(replay(setup, steps)));
      expect(await svc.record(m.id, m.scorerToken, last)).toMatchObject({ ok: true, version: CHECKPOINT_EVERY, duplicate: true });

      // A restart: a new store on the same file loads the match from that checkpoint, equal to a replay of its log.
      const answered = (await svc.current(m.id))!.snapshot;
      db.close();
      const restarted = service(openDb(db.dir).matches).svc;
      const loaded = (await restarted.current(m.id))!.snapshot;
      const whole = replay(setup, steps);
      expect(loaded.version).toBe(CHECKPOINT_EVERY);
      expect(loaded.state).toEqual(view(whole));
      expect(loaded.stats).toEqual(statsOf(whole));
      expect(loaded).toEqual(answered);
    },
  );

  it('the store itself: the append is refused with a StoreRefusal (cause store-error) and writes nothing; the same append goes through after', async () => {
    const db = openDb();
    const { svc } = service(db.matches);
    const m = await svc.create(LONG_SETUP);
    const [step] = plausibleSteps(1, LONG_SETUP, { seed: 43 });
    const ck = { format: 2, rulesVersion: 2, version: 1, depth: 1, core: { score: [1, 0] }, stats: {}, hash: 'h' } as never;
    const snapshot = (await db.matches.list(1))[0]!;
    const args = [m.id, 0, { stepId: 's1', step: step!, at: 5 }, { summary: { ...snapshot, version: 1 }, state: {} as never }, { checkpoint: ck }] as const;
    db.db.exec(faults[2][1]);
    const refusal = await db.matches.append(...args).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(StoreRefusal);
    expect(refusal).toMatchObject({ reason: 'store-error', message: expect.stringContaining('injected: checkpoint') });
    expect(await db.matches.load(m.id)).toMatchObject({ steps: [] });
    expect((await db.matches.open(m.id, 0))!.checkpoint).toBeNull();
    expect((await db.matches.list(1))[0]!.version).toBe(0);
    db.db.exec('DROP TRIGGER inject');
    expect(await db.matches.append(...args)).toEqual({ status: 'ok', version: 1 });
    expect((await db.matches.open(m.id, 0))!.checkpoint).toEqual(ck);
  });
});
