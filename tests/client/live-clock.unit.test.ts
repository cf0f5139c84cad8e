/**
 * The live client's shot clock (web/src/lib/live-clock.ts) over a fake socket port: the server-time estimate
 * (best round trip wins, sampled again on reconnect and when a running clock finds it stale), clock answers and
 * pushes in revision order (a late one never takes the clock back), watching a clock joins the match's room,
 * presses, and the display's one timer (fake timers: set exactly to the next change of the shown second, none
 * while idle, paused or expired).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newMatch, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { ShotClockAck } from '../../shared/protocol/shot-clock';
import { CLOCK_PRESETS, initialShotClock, shotClockView, type ShotClockView } from '../../shared/shot-clock';
import {
  clockSubscriptions,
  pressClock,
  REFRESH_MS,
  showClock,
  tickShotClock,
  TIME_SAMPLES,
  watchShotClock,
  type ShownClock,
} from '../../web/src/lib/live-clock';
import { openConnection } from '../../web/src/lib/live-connection';
import { matchSubscriptions } from '../../web/src/lib/live-matches';
import { FakeDocument, FakePort } from '../helpers/fake-port';

const SETUP = parseSetup({ discipline: 'rotation', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [2, 2] });
const state = newMatch(SETUP);
const settings = CLOCK_PRESETS.pro;
const idle = shotClockView(settings, initialShotClock(settings, view(state)), 0);
/** The clock running since server time `start` with `allowanceMs`. */
const running = (start: number, allowanceMs = 30_000): ShotClockView => ({
  ...idle,
  status: 'running',
  deadline: start + allowanceMs,
  remainingMs: allowanceMs,
  allowanceMs,
});
const ack = (revision: number, clock: ShotClockView | null, now = 1_000_000): ShotClockAck => ({ ok: true, matchId: 'm1', clock, now, revision });

/** A connection over a fake port whose local clock the test sets. */
function rig() {
  const port = new FakePort();
  const connection = openConnection(port, { document: new FakeDocument() });
  let local = 500_000;
  const clocks = clockSubscriptions(connection, () => local);
  const matches = matchSubscriptions(connection);
  return {
    port,
    connection,
    clocks,
    matches,
    setLocal: (t: number) => (local = t),
    /** Answer every pending `time` request: each sent at `local`, answered after `rtt` with the server at `offset`. */
    answerTimes(offset: number, rtts: number[]) {
      for (const rtt of rtts) {
        const sent = local;
        local += rtt;
        port.answer('time', { ok: true, now: sent + rtt / 2 + offset });
      }
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the server-time estimate', () => {
  it('samples on connect, one request after another, and keeps the shortest round trip', () => {
    const r = rig();
    r.port.open();
    expect(r.port.count('time')).toBe(1);
    // Round trips 80, 10, 40, 200, 20 ms: the 10 ms sample wins, its error at most 5 ms.
    const offset = 7_000;
    const rtts = [80, 10, 40, 200, 20];
    for (const rtt of rtts) {
      const sent = 500_000 + rtts.slice(0, rtts.indexOf(rtt)).reduce((a, b) => a + b, 0);
      r.setLocal(sent + rtt);
      // The server's answer is off by up to half the round trip; here it reads as if the answer left late.
      r.port.answer('time', { ok: true, now: sent + rtt + offset });
    }
    expect(r.port.count('time')).toBe(TIME_SAMPLES);
    expect(r.clocks.time.errorMs).toBe(5);
    // The estimate is within half the best round trip of the true offset.
    r.setLocal(600_000);
    expect(Math.abs(r.clocks.time.now() - (600_000 + offset))).toBeLessThanOrEqual(5);
  });

  it('a lost answer moves on to the next sample; a reconnect measures again from scratch', () => {
    const r = rig();
    r.port.open();
    r.port.lose('time');
    expect(r.port.count('time')).toBe(2);
    r.answerTimes(100, [4, 4, 4, 4]);
    expect(r.port.count('time')).toBe(TIME_SAMPLES);
    expect(r.clocks.time.errorMs).toBe(2);
    r.port.drop();
    r.port.open();
    expect(r.port.count('time')).toBe(TIME_SAMPLES + 1);
  });

  it('a running clock samples again only when the estimate is older than REFRESH_MS', () => {
    const r = rig();
    r.port.open();
    r.answerTimes(0, [2, 2, 2, 2, 2]);
    const stop = watchShotClock(r.matches, r.clocks, 'm1', () => {});
    r.port.answer('shotClock', ack(1, running(500_000)));
    expect(r.port.count('time')).toBe(TIME_SAMPLES);
    r.setLocal(500_000 + REFRESH_MS + 1000);
    r.port.pushShotClock({ matchId: 'm1', clock: running(560_000), now: 561_000, revision: 2 });
    expect(r.port.count('time')).toBe(TIME_SAMPLES + 1);
    stop();
  });

  it('before any sample, a clock answer’s server time stands in', () => {
    const r = rig();
    r.port.open();
    r.port.lose('time');
    r.port.lose('time');
    r.port.lose('time');
    r.port.lose('time');
    r.port.lose('time');
    expect(r.clocks.time.errorMs).toBeNull();
    watchShotClock(r.matches, r.clocks, 'm1', () => {});
    r.port.answer('shotClock', ack(1, idle, 900_000));
    expect(r.clocks.time.now()).toBe(900_000);
  });
});

describe('a match’s clock', () => {
  it('watching it joins the match’s room and hears answers and pushes in revision order only', () => {
    const r = rig();
    r.port.open();
    const heard: (ShotClockView | null)[] = [];
    const stop = watchShotClock(r.matches, r.clocks, 'm1', (c) => heard.push(c));
    expect(r.port.count('subscribe')).toBe(1);
    expect(r.port.asked.subscribe[0]!.req).toMatchObject({ matchId: 'm1', detail: 'scorebug' });
    r.port.answer('shotClock', ack(3, idle));
    r.port.pushShotClock({ matchId: 'm1', clock: running(1000), now: 1000, revision: 4 });
    r.port.pushShotClock({ matchId: 'm1', clock: idle, now: 900, revision: 2 }); // late: dropped
    r.port.pushShotClock({ matchId: 'm2', clock: idle, now: 900, revision: 9 }); // another match: not ours
    r.port.pushShotClock({ matchId: 'm1', clock: null, now: 1200, revision: 5 }); // turned off
    expect(heard).toEqual([idle, running(1000), null]);
    stop();
    expect(r.port.told).toContainEqual({ event: 'unsubscribe', req: { matchId: 'm1' } });
  });

  it('a refused read reaches onError', () => {
    const r = rig();
    r.port.open();
    const errors: string[] = [];
    watchShotClock(
      r.matches,
      r.clocks,
      'nope',
      () => {},
      (e) => errors.push(e.code),
    );
    r.port.answer('shotClock', { ok: false, error: { code: 'not-found', message: 'no match "nope"' } });
    expect(errors).toEqual(['not-found']);
  });

  it('a press sends the action and period, and its answer goes to the watchers at once', async () => {
    const r = rig();
    r.port.open();
    const heard: (ShotClockView | null)[] = [];
    watchShotClock(r.matches, r.clocks, 'm1', (c) => heard.push(c));
    r.port.answer('shotClock', ack(1, idle));
    const pressed = pressClock(r.connection, r.clocks, 'm1', 'start', 0);
    expect(r.port.asked.shotClockAction[0]!.req).toEqual({ matchId: 'm1', action: 'start', period: 0 });
    r.port.answer('shotClockAction', ack(2, running(2000)));
    await expect(pressed).resolves.toMatchObject({ ok: true, revision: 2 });
    expect(heard).toEqual([idle, running(2000)]);
  });

  it('a press while offline rejects with "offline" and sends nothing', async () => {
    const r = rig();
    await expect(pressClock(r.connection, r.clocks, 'm1', 'pause', 0)).rejects.toThrow('offline');
    expect(r.port.count('shotClockAction')).toBe(0);
  });
});

describe('the display’s one timer', () => {
  it('shows the whole seconds left and sets one timer exactly to the next change of the second', () => {
    vi.useFakeTimers();
    let serverNow = 10_000;
    const time = { now: () => serverNow, onChange: () => () => {} };
    const shown: (ShownClock | null)[] = [];
    const view = running(10_000 - 250, 30_000); // 29.75 s left: shows 30
    const stop = tickShotClock(view, time, (s) => shown.push(s));
    expect(shown.at(-1)!.seconds).toBe(30);
    expect(vi.getTimerCount()).toBe(1);
    serverNow += 749;
    vi.advanceTimersByTime(749);
    expect(shown.length).toBe(1);
    serverNow += 1;
    vi.advanceTimersByTime(1);
    expect(shown.at(-1)!.seconds).toBe(29);
    expect(vi.getTimerCount()).toBe(1);
    stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('runs no timer while the clock is idle, paused or expired, or when the match has none', () => {
    vi.useFakeTimers();
    const time = { now: () => 50_000, onChange: () => () => {} };
    for (const view of [idle, { ...idle, status: 'paused' as const, remainingMs: 12_300 }, { ...idle, status: 'expired' as const, remainingMs: 0 }, null]) {
      const shown: (ShownClock | null)[] = [];
      const stop = tickShotClock(view, time, (s) => shown.push(s));
      expect(vi.getTimerCount()).toBe(0);
      expect(shown).toHaveLength(1);
      stop();
    }
  });

  it('warning and urgent levels, and on air from the settings’ second', () => {
    const view = { ...running(0, 30_000), showFromSeconds: 10 };
    expect(showClock(view, 15_000)).toMatchObject({ seconds: 15, level: 'none', onAir: false });
    expect(showClock(view, 20_500)).toMatchObject({ seconds: 10, level: 'warning', onAir: true });
    expect(showClock(view, 25_000)).toMatchObject({ seconds: 5, level: 'urgent', onAir: true });
    expect(showClock({ ...idle, showFromSeconds: null }, 0).onAir).toBe(false);
  });

  it('re-arms when the server-time estimate changes', () => {
    vi.useFakeTimers();
    let offset = 0;
    const listeners = new Set<() => void>();
    const time = { now: () => 10_000 + offset, onChange: (cb: () => void) => (listeners.add(cb), () => listeners.delete(cb)) };
    const shown: ShownClock[] = [];
    tickShotClock(running(10_000, 30_000), time, (s) => shown.push(s!));
    expect(shown.at(-1)!.seconds).toBe(30);
    offset = 2_500;
    for (const cb of listeners) cb();
    expect(shown.at(-1)!.seconds).toBe(28);
    expect(vi.getTimerCount()).toBe(1);
  });
});
