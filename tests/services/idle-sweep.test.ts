/**
 * The idle sweep (server/matches/idle-sweep.ts) on the injected clock, without waiting: a loaded match nobody
 * watches and nobody recorded for `idleMs` is dropped at the next sweep, a watched one stays, a recent one
 * stays, and a dropped one loads again with the same state and goes on recording. In-memory store, fake clock.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { IdleSweep } from '../../server/matches/idle-sweep';
import { LiveCache } from '../../server/matches/live-cache';
import { MatchService } from '../../server/matches/service';
import { MemoryStore } from '../../server/storage/memory-store';
import { legalSteps, SETUP } from '../helpers/server';
import { FakeClock, recordOk } from '../helpers/services';

const IDLE_MS = 30 * 60_000;
const steps = legalSteps(3);

describe('idle sweep', () => {
  it('drops idle unwatched matches by the clock, keeps watched and recent ones, and loads a dropped one again', async () => {
    const clock = new FakeClock();
    const store = new MemoryStore();
    const log = pino({ level: 'silent' });
    const live = new LiveCache({ store, shared: false, log, clock });
    const matches = new MatchService({ store, log, clock, shared: false, onAppended: () => undefined, live });
    const watched = new Set<string>();
    const sweep = new IdleSweep({ matches, idleMs: IDLE_MS, isViewed: (id) => watched.has(id) });

    const idle = await matches.create(SETUP);
    const seen = await matches.create(SETUP);
    watched.add(seen.id);
    await recordOk(matches, idle, steps[0]!);
    const before = (await matches.current(idle.id))!.snapshot;

    clock.advance(IDLE_MS - 1);
    const recent = await matches.create(SETUP);
    sweep.sweep();
    expect([idle.id, seen.id, recent.id].map((id) => live.isLoaded(id))).toEqual([true, true, true]);

    clock.advance(2);
    sweep.sweep();
    expect([idle.id, seen.id, recent.id].map((id) => live.isLoaded(id))).toEqual([false, true, true]);

    // Used again: loaded from the store, the same state; recording goes on.
    expect((await matches.current(idle.id))!.snapshot).toEqual(before);
    expect(await recordOk(matches, idle, steps[1]!)).toBe(2);
    clock.advance(IDLE_MS);
    sweep.sweep();
    expect(live.isLoaded(idle.id)).toBe(true); // idle for exactly IDLE_MS: not yet
    clock.advance(1);
    watched.clear();
    sweep.sweep();
    expect([idle.id, seen.id, recent.id].map((id) => live.isLoaded(id))).toEqual([false, false, false]);
  });
});
