/**
 * What a loaded match keeps in memory (server/matches/live-cache.ts), on the real Redis store, the SQLite store and the in-memory store:
 * - a bounded window: at most WINDOW_MAX effective steps on the undo stack and WINDOW_MAX log events, whatever
 *   the length of the match, and the state and statistics still those of the whole log;
 * - an undo reaching past the window rebuilds from the log and is still exact;
 * - a retried stepId older than the window is still a duplicate (or `step-id-reused`), from the store's index;
 * - loading starts from the checkpoint stored beside the log and equals a replay of the whole log;
 * - idle matches nobody watches are forgotten, watched ones kept, a forgotten one loads again.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { applyStep, newMatch, replay, statsOf, view, type Match, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { CHECKPOINT_EVERY, LiveCache, WINDOW, WINDOW_MAX } from '../../server/matches/live-cache';
import { MatchService } from '../../server/matches/service';
import type { MatchStore, OpenedLog } from '../../server/storage/ports';
import { requireRedis } from '../helpers/redis';
import { LONG_SETUP, plausibleSteps } from '../helpers/server';
import { storeKinds, suiteStore } from '../helpers/stores';

const redis = await requireRedis();
const log = pino({ level: 'silent' });
const setup = parseSetup(LONG_SETUP);
const kinds = storeKinds(redis.available);

/** A store that counts whole-log loads and remembers what `open` returned. */
function counting(inner: MatchStore, opts: { noCheckpoint?: boolean } = {}) {
  const seen = { loads: 0, opened: [] as OpenedLog[] };
  const store: MatchStore = Object.create(inner) as MatchStore;
  store.load = (id) => {
    seen.loads++;
    return inner.load(id);
  };
  store.open = async (id, tail) => {
    const o = await inner.open(id, opts.noCheckpoint ? Number.MAX_SAFE_INTEGER : tail);
    const out = o && opts.noCheckpoint ? { ...o, checkpoint: null } : o;
    if (out) seen.opened.push(out);
    return out;
  };
  return { store, seen };
}

/** The engine's match after `steps`, played one by one. */
function played(steps: readonly Step[]): Match {
  let m = newMatch(setup);
  for (const s of steps) {
    const r = applyStep(m, s);
    if (!r.ok) throw new Error(r.error.message);
    m = r.match;
  }
  return m;
}

describe.each(kinds)('a loaded match on the %s store', (kind) => {
  const fixture = suiteStore(kind, 'bounded', redis.url);

  const service = (over: MatchStore = fixture.store) => {
    const cache = new LiveCache({ store: over, shared: kind === 'redis', log });
    return { cache, svc: new MatchService({ store: over, log, shared: kind === 'redis', onAppended: () => undefined, live: cache }) };
  };

  /** Record `steps` (stepIds `e<version>`) from version `from`; returns the last result. */
  async function recordAll(svc: MatchService, id: string, token: string, steps: readonly Step[], from = 0) {
    let last;
    for (const [i, step] of steps.entries()) {
      last = await svc.record(id, token, { stepId: `e${from + i + 1}`, expectedVersion: from + i, step });
      if (!last.ok) throw new Error(`step ${from + i + 1} refused: ${JSON.stringify(last.error)}`);
    }
    return last!;
  }

  it('keeps at most WINDOW_MAX steps for undo and events for dedupe, and the state of the whole log', async () => {
    const { cache, svc } = service();
    const m = await svc.create(LONG_SETUP);
    const steps = plausibleSteps(2 * WINDOW + 150, LONG_SETUP, { seed: 11, undoRate: 0.03 });
    await recordAll(svc, m.id, m.scorerToken, steps);
    const kept = (await cache.inspect(m.id))!;
    const whole = replay(setup, steps);
    expect(kept.version).toBe(steps.length);
    expect(kept.depth).toBe(whole.depth);
    expect(kept.keptSteps).toBeLessThanOrEqual(WINDOW_MAX);
    expect(kept.keptSteps).toBeGreaterThanOrEqual(WINDOW);
    expect(kept.keptStepIds).toBe(kept.keptSteps);
    expect(kept.undoable).toBeLessThanOrEqual(WINDOW_MAX);
    expect(kept.undoable).toBeGreaterThanOrEqual(Math.min(WINDOW, whole.depth) - 150);
    const cur = (await svc.current(m.id))!;
    expect(cur.snapshot.state).toEqual(view(whole));
    expect(cur.snapshot.stats).toEqual(statsOf(whole));
  });

  it('an undo reaching past the kept steps rebuilds from the log, and every undo is exact', async () => {
    const { cache, svc } = service();
    const m = await svc.create(LONG_SETUP);
    const steps = plausibleSteps(2 * WINDOW + 60, LONG_SETUP, { seed: 12 });
    await recordAll(svc, m.id, m.scorerToken, steps);
    expect((await cache.inspect(m.id))!.undoable).toBeLessThan(steps.length);
    const log: Step[] = [...steps];
    for (let i = 0; i < steps.length - 10; i++) {
      const r = await svc.record(m.id, m.scorerToken, { stepId: `u${i}`, expectedVersion: log.length, step: { undo: true } });
      log.push({ undo: true });
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.state).toEqual(view(played(steps.slice(0, steps.length - i - 1))));
    }
    const cur = (await svc.current(m.id))!;
    const whole = replay(setup, log);
    expect(whole.depth).toBe(10);
    expect(cur.snapshot.stats).toEqual(statsOf(whole));
    expect(cur.snapshot.state).toEqual(view(played(steps.slice(0, 10))));
    // And the match goes on from there: the same steps again.
    const redo = await recordAll(svc, m.id, m.scorerToken, steps.slice(10, 20), log.length);
    if (redo.ok) expect(redo.state).toEqual(view(played(steps.slice(0, 20))));
  });

  it('a retried stepId older than the kept events is still a duplicate, or step-id-reused with another step', async () => {
    const { cache, svc } = service();
    const m = await svc.create(LONG_SETUP);
    const steps = plausibleSteps(2 * WINDOW + 20, LONG_SETUP, { seed: 13 });
    await recordAll(svc, m.id, m.scorerToken, steps);
    expect(cache.versionOf((await cache.get(m.id))!, 'e1')).toBeUndefined(); // out of the window
    const first = await svc.record(m.id, m.scorerToken, { stepId: 'e1', step: steps[0] });
    expect(first).toMatchObject({ ok: true, version: 1, duplicate: true });
    if (first.ok) expect(first.state).toEqual(view(played(steps.slice(0, 1))));
    // One inside the window, not the latest: its own version and state.
    const near = steps.length - 5;
    const kept = await svc.record(m.id, m.scorerToken, { stepId: `e${near}`, step: steps[near - 1] });
    expect(kept).toMatchObject({ ok: true, version: near, duplicate: true });
    if (kept.ok) expect(kept.state).toEqual(view(played(steps.slice(0, near))));
    // With the version it was first sent with (stale now): still the retry.
    const stale = await svc.record(m.id, m.scorerToken, { stepId: 'e2', expectedVersion: 1, step: steps[1] });
    expect(stale).toMatchObject({ ok: true, version: 2, duplicate: true });
    // A step the rules refuse now, under an old stepId it was not recorded with: step-id-reused, not a rules error.
    const reused = await svc.record(m.id, m.scorerToken, { stepId: 'e3', step: { choice: 'accept' } });
    expect(reused).toMatchObject({ ok: false, error: { code: 'step-id-reused', field: 'stepId' } });
    expect((await cache.inspect(m.id))!.version).toBe(steps.length);
    expect((await svc.steps(m.id))!.steps).toHaveLength(steps.length);
  });

  it('loads from the checkpoint stored beside the log: the same match as a replay, without reading the whole log', async () => {
    const { svc } = service();
    const m = await svc.create(LONG_SETUP);
    const steps = plausibleSteps(2 * CHECKPOINT_EVERY + 37, LONG_SETUP, { seed: 14, undoRate: 0.05 });
    await recordAll(svc, m.id, m.scorerToken, steps);
    // The checkpoint is written with the step that makes it due.
    expect((await fixture.store.open(m.id, WINDOW))?.checkpoint?.version).toBe(2 * CHECKPOINT_EVERY);
    const whole = replay(setup, steps);
    const fromCheckpoint = counting(fixture.store);
    const a = service(fromCheckpoint.store);
    const cur = (await a.svc.current(m.id))!;
    expect(fromCheckpoint.seen.loads).toBe(0);
    expect(fromCheckpoint.seen.opened[0]!.checkpoint?.version).toBe(2 * CHECKPOINT_EVERY);
    expect(fromCheckpoint.seen.opened[0]!.steps.length).toBe(WINDOW);
    expect(cur.snapshot.version).toBe(steps.length);
    expect(cur.snapshot.state).toEqual(view(whole));
    expect(cur.snapshot.stats).toEqual(statsOf(whole));
    // Without the checkpoint (a replay of the whole log): the same.
    const replayed = counting(fixture.store, { noCheckpoint: true });
    const b = service(replayed.store);
    expect((await b.svc.current(m.id))!.snapshot).toEqual(cur.snapshot);
    expect(replayed.seen.opened[0]!.steps).toHaveLength(steps.length);
    // The match loaded from the checkpoint goes on exactly, undos reaching before the checkpoint included.
    const log = [...steps];
    for (let i = 0; i < 60; i++) {
      const r = await a.svc.record(m.id, m.scorerToken, { stepId: `c${i}`, expectedVersion: log.length, step: { undo: true } });
      expect(r.ok).toBe(true);
      log.push({ undo: true });
    }
    expect(fromCheckpoint.seen.loads).toBeGreaterThan(0); // the undo past the checkpoint read the log
    const after = replay(setup, log);
    const now = (await a.svc.current(m.id))!.snapshot;
    expect(now.state).toEqual(view(after));
    expect(now.stats).toEqual(statsOf(after));
  });

  it('forgets idle matches nobody watches, keeps watched ones, and loads a forgotten one again', async () => {
    const { cache, svc } = service();
    const watched = await svc.create(LONG_SETUP);
    const idle = await svc.create(LONG_SETUP);
    const steps = plausibleSteps(40, LONG_SETUP, { seed: 15 });
    await recordAll(svc, idle.id, idle.scorerToken, steps);
    await recordAll(svc, watched.id, watched.scorerToken, steps);
    const before = (await svc.current(idle.id))!.snapshot;
    await new Promise((r) => setTimeout(r, 30));
    cache.evictIdle(10, (id) => id === watched.id);
    expect(cache.isLoaded(idle.id)).toBe(false);
    expect(cache.isLoaded(watched.id)).toBe(true);
    // Used again: loaded from the store, the same state; recording goes on.
    expect((await svc.current(idle.id))!.snapshot).toEqual(before);
    expect(cache.isLoaded(idle.id)).toBe(true);
    const next = plausibleSteps(41, LONG_SETUP, { seed: 15 })[40]!;
    expect(await svc.record(idle.id, idle.scorerToken, { stepId: 'after', expectedVersion: 40, step: next })).toMatchObject({ ok: true, version: 41 });
    // Recently used matches are not idle.
    cache.evictIdle(60_000, () => false);
    expect(cache.isLoaded(idle.id)).toBe(true);
  });
});
