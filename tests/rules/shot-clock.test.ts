/** The shot clock and match clock decider (shared/shot-clock.ts; docs/rules.md D-32): given a clock, when an action at a time, then the clock. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLOCK_PRESETS,
  type ShotClock,
  type ShotClockAction,
  type ShotClockSettings,
  shotClockAfterStep,
  shotClockSettingsProblem,
  shotClockView,
  decideShotClock,
  initialShotClock,
  matchClockMs,
  msToNextSecond,
  offsetFromSamples,
  onAir,
  shownSeconds,
  warningLevel,
} from '../../shared/shot-clock';
import { applyStep, type Match, type MatchState, newMatch, view } from '../../shared/index';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { fcRuns } from '../helpers/fc-runs';
import { accept, fresh141, freshRot, given } from '../helpers/given';

const pro: ShotClockSettings = CLOCK_PRESETS.pro;
const T0 = 1_800_000_000_000;

/** Apply an action that must be accepted and change the clock. */
function act(s: ShotClockSettings, c: ShotClock, action: ShotClockAction, now: number, winner: 'A' | 'B' | null = null): ShotClock {
  const d = decideShotClock(s, c, action, now, winner);
  if (!d.ok) throw new Error(`${action} refused: ${d.message}`);
  expect(d.duplicate).toBe(false);
  return d.clock;
}

/** Record a step on the match and move the clock on, as the server does. */
function step(s: ShotClockSettings, m: Match, c: ShotClock, input: unknown, now: number): { m: Match; c: ShotClock } {
  const next = accept(m, input);
  return { m: next, c: shotClockAfterStep(s, c, view(next), now) };
}

const midRack = { ...fresh141, start: { score: [20, 15], fouls: [0, 0], innings: [5, 5], highRun: [9, 9], turn: 'A', rack: 2, ballsOnTable: 9 } };

describe('a shot clock, start to expiry', () => {
  it("starts idle with the shot's allowance for the player at the table; start, pause and resume keep the seconds left", () => {
    const m = given(fresh141, [{ shot: { call: { ball: 1 }, pocketed: [1] } }]);
    let c = initialShotClock(pro, view(m));
    expect(c).toMatchObject({ status: 'idle', kind: 'shot', allowanceMs: 30_000, remainingMs: 30_000, shooter: 'A', deadline: null });
    c = initialShotClock(pro, view(given(fresh141)));
    c = shotClockAfterStep(pro, c, view(m), T0 - 1); // the break recorded: the first shot after it
    expect(c).toMatchObject({ status: 'idle', kind: 'first-shot', allowanceMs: 60_000, remainingMs: 60_000, shooter: 'A', deadline: null });
    c = act(pro, c, 'start', T0);
    expect(c).toMatchObject({ status: 'running', deadline: T0 + 60_000 });
    c = act(pro, c, 'pause', T0 + 12_345);
    expect(c).toMatchObject({ status: 'paused', deadline: null, remainingMs: 47_655 });
    c = act(pro, c, 'resume', T0 + 100_000);
    expect(c).toMatchObject({ status: 'running', deadline: T0 + 100_000 + 47_655 });
  });

  it('expires at the deadline; start, resume and extension are refused once expired, reset makes it idle again', () => {
    const m = given(midRack);
    let c = act(pro, initialShotClock(pro, view(m)), 'start', T0);
    const at = T0 + c.allowanceMs;
    expect(shotClockView(pro, c, at - 1).status).toBe('running');
    expect(shotClockView(pro, c, at).status).toBe('expired');
    for (const a of ['start', 'resume', 'extension'] as const) {
      const d = decideShotClock(pro, c, a, at + 5, null);
      expect(d).toMatchObject({ ok: false, code: 'clock-expired' });
      if (!d.ok) expect(d.message).toMatch(/ran out/);
    }
    c = act(pro, c, 'reset', at + 10);
    expect(c).toMatchObject({ status: 'idle', remainingMs: c.allowanceMs, deadline: null });
  });

  it('a time foul is recorded by the rules, never by the clock: an expired clock leaves the score alone', () => {
    let m = given(midRack);
    let c = act(pro, initialShotClock(pro, view(m)), 'start', T0);
    const score = view(m).score;
    expect(shotClockView(pro, c, T0 + 61_000).status).toBe('expired');
    expect(view(m).score).toEqual(score);
    ({ m, c } = step(pro, m, c, { shot: { fouls: ['time'] } }, T0 + 62_000));
    expect(view(m)).toMatchObject({ score: [19, 15], fouls: [1, 0], turn: 'B' });
    expect(c).toMatchObject({ status: 'idle', shooter: 'B', kind: 'shot', allowanceMs: 30_000 });
  });
});

describe('no clock for a break (D-32a)', () => {
  /** Every kind of break: 14-1 opening break, re-break, the break after a three-foul re-rack (NBA, WPA); Rotation breaks. */
  const breaks: [string, () => Match][] = [
    ['14-1 opening break', () => given(fresh141)],
    [
      '14-1 re-break after a breaking foul',
      () => given(fresh141, [{ shot: { call: { ball: 3 }, breakRails: { objectBalls: 0, cueBall: false } } }, { choice: 'rebreak' }]),
    ],
    [
      '14-1 NBA re-rack after a third foul',
      () =>
        given(midRack, [
          { shot: { fouls: ['time'] } },
          { shot: { call: 'safety' } },
          { shot: { fouls: ['time'] } },
          { shot: { call: 'safety' } },
          { shot: { fouls: ['time'] } },
          { choice: 'rerack' },
        ]),
    ],
    [
      '14-1 WPA mandatory re-rack',
      () =>
        given({ ...midRack, ruleset: 'wpa' }, [
          { shot: { fouls: ['time'] } },
          { shot: { call: 'safety' } },
          { shot: { fouls: ['time'] } },
          { shot: { call: 'safety' } },
          { shot: { fouls: ['time'] } },
        ]),
    ],
    ['Rotation opening break', () => given(freshRot)],
    ['Rotation break of the next rack', () => given({ ...freshRot, start: { onTable: [15] } }, [{ shot: { pocketed: [15] } }])],
  ];

  it.each(breaks)(
    '%s: set for the break the clock has no allowance; start, resume and extension are refused (break-shot), pause and reset change nothing',
    (_what, match) => {
      const m = match();
      expect(view(m).breakShot).toBe(true);
      for (const settings of [pro, CLOCK_PRESETS.league, { ...pro, autoStart: true }]) {
        const c = initialShotClock(settings, view(m));
        expect(c).toMatchObject({ kind: 'break', status: 'idle', allowanceMs: 0, remainingMs: 0 });
        for (const a of ['start', 'resume', 'extension'] as const) {
          const d = decideShotClock(settings, c, a, T0, null);
          expect(d).toMatchObject({ ok: false, code: 'break-shot' });
          if (!d.ok) expect(d.message).toBe('the shot clock does not run for a break (D-32a): it starts for the first shot after the break');
        }
        for (const a of ['pause', 'reset'] as const) expect(decideShotClock(settings, c, a, T0, null)).toEqual({ ok: true, clock: c, duplicate: true });
        // The same after a step that leads to the break, even with autoStart.
        const moved = shotClockAfterStep(settings, act(settings, initialShotClock(settings, view(given(midRack))), 'start', T0), view(m), T0 + 1);
        expect(moved).toMatchObject({ kind: 'break', status: 'idle', deadline: null, allowanceMs: 0 });
      }
    },
  );

  it('a clock set for a break stored running (before D-32a) is refused too and reset makes it idle', () => {
    const stale: ShotClock = {
      ...initialShotClock(pro, view(given(fresh141))),
      status: 'running',
      deadline: T0 + 60_000,
      remainingMs: 60_000,
      allowanceMs: 60_000,
    };
    expect(decideShotClock(pro, stale, 'extension', T0, null)).toMatchObject({ ok: false, code: 'break-shot' });
    expect(act(pro, stale, 'reset', T0)).toMatchObject({ status: 'idle', deadline: null });
  });

  it('property: whenever the clock runs out, a time foul is a step the rules accept (the clock never ran for a break)', () => {
    const setups = fc.constantFrom<Record<string, unknown>>(
      { discipline: '14-1', ruleset: 'nba', players: ['A', 'B'], targets: [40, 40] },
      { discipline: '14-1', ruleset: 'wpa', players: ['A', 'B'], targets: [40, 40] },
      { discipline: 'rotation', players: ['A', 'B'] },
    );
    let expired = 0;
    fc.assert(
      fc.property(setups, fc.integer(), fc.integer({ min: 0, max: 60 }), fc.boolean(), (input, seed, length, autoStart) => {
        const settings = { ...pro, autoStart };
        // The clock followed the match step by step, as the server moves it.
        const rand = seededRandom(seed);
        let m = newMatch(parseSetup(input));
        let c = initialShotClock(settings, view(m));
        for (let i = 0; i < length && !m.core.winner; i++) {
          const r = applyStep(m, plausibleStep(m, rand));
          if (!r.ok) continue;
          m = r.match;
          c = shotClockAfterStep(settings, c, view(m), T0);
        }
        const started = c.status === 'running' ? { ok: true as const, clock: c } : decideShotClock(settings, c, 'start', T0, view(m).winner);
        if (!started.ok) {
          // Refused: only for a break or a won match.
          expect(view(m).breakShot || view(m).winner !== null).toBe(true);
          expect(started.code).toBe(view(m).winner ? 'match-over' : 'break-shot');
          return;
        }
        if (view(m).awaiting) return; // a choice is pending: the clock waits for it (it is not started by itself then)
        expect(shotClockView(settings, started.clock, T0 + started.clock.remainingMs + 1).status).toBe('expired');
        expect(applyStep(m, { shot: { fouls: ['time'] } }).ok).toBe(true);
        expired++;
      }),
      { numRuns: fcRuns(200) },
    );
    expect(expired).toBeGreaterThan(20);
  });
});

describe('allowances (pro preset: 60 s for the first shot after the break and after a push out, 30 s otherwise)', () => {
  it('the break (no clock), then the first shot after it, then ordinary shots', () => {
    let m = given(fresh141);
    let c = initialShotClock(pro, view(m));
    expect(c).toMatchObject({ kind: 'break', allowanceMs: 0 });
    ({ m, c } = step(pro, m, c, { shot: { call: { ball: 1 }, pocketed: [1], breakRails: { objectBalls: 0, cueBall: false } } }, T0));
    expect(c).toMatchObject({ kind: 'first-shot', allowanceMs: 60_000, shooter: 'A' });
    ({ c } = step(pro, m, c, { shot: { call: { ball: 2 }, pocketed: [2] } }, T0 + 1));
    expect(c).toMatchObject({ kind: 'shot', allowanceMs: 30_000, shooter: 'A' });
  });

  it("Rotation: a push out gives the next shot the push-out allowance, through the opponent's choice", () => {
    let m = given(freshRot);
    let c = initialShotClock(pro, view(m));
    ({ m, c } = step(pro, m, c, { shot: { firstContact: 1, pocketed: [2] } }, T0));
    expect(view(m).pushOutAvailable).toBe(true);
    ({ m, c } = step(pro, m, c, { shot: { pushOut: true } }, T0 + 1));
    expect(view(m).awaiting).toBe('push-out-choice');
    expect(c).toMatchObject({ kind: 'push-out', allowanceMs: 60_000, shooter: 'B' });
    ({ c } = step(pro, m, c, { choice: 'shoot' }, T0 + 2));
    expect(c).toMatchObject({ kind: 'push-out', allowanceMs: 60_000, shooter: 'B' });
  });

  it('with autoStart a recorded shot starts the next one running; a pending choice waits idle; a won match stops', () => {
    const auto = { ...pro, autoStart: true };
    let m = given(midRack);
    let c = initialShotClock(auto, view(m));
    ({ m, c } = step(auto, m, c, { shot: { call: { ball: 3 }, pocketed: [3] } }, T0));
    expect(c).toMatchObject({ status: 'running', deadline: T0 + 30_000 });
    ({ c } = step(auto, m, c, { shot: { call: { ball: 4 }, cueBall: 'scratch' } }, T0 + 5));
    expect(c.status).toBe('running'); // 14-1 scratch: B plays with ball in hand, no choice pending
    const near = given({
      ...fresh141,
      targets: [21, 100],
      start: { score: [20, 15], fouls: [0, 0], innings: [5, 5], highRun: [9, 9], turn: 'A', rack: 2, ballsOnTable: 9 },
    });
    const won = step(auto, near, initialShotClock(auto, view(near)), { shot: { call: { ball: 3 }, pocketed: [3] } }, T0);
    expect(view(won.m).winner).toBe('A');
    expect(won.c).toMatchObject({ status: 'idle', deadline: null });
    expect(decideShotClock(auto, won.c, 'start', T0 + 1, 'A')).toMatchObject({ ok: false, code: 'match-over' });
  });
});

describe('extensions', () => {
  it('one per player per rack: adds its seconds to a running clock; a second in the same shot is a harmless repeat; none left is refused', () => {
    const m = given(midRack);
    let c = act(pro, initialShotClock(pro, view(m)), 'start', T0);
    c = act(pro, c, 'extension', T0 + 20_000);
    expect(c).toMatchObject({ deadline: T0 + 60_000, allowanceMs: 60_000, extensionsUsed: [1, 0] });
    const again = decideShotClock(pro, c, 'extension', T0 + 21_000, null);
    expect(again).toMatchObject({ ok: true, duplicate: true });
    if (again.ok) expect(again.clock).toEqual(c);
    ({ c } = step(pro, m, c, { shot: { call: { ball: 3 }, pocketed: [3] } }, T0 + 25_000));
    c = act(pro, c, 'start', T0 + 26_000);
    const none = decideShotClock(pro, c, 'extension', T0 + 27_000, null);
    expect(none).toMatchObject({ ok: false, code: 'no-extension-left' });
    if (!none.ok) expect(none.message).toBe('no extension left: player A has used the extension of this rack');
    expect(shotClockView(pro, c, T0 + 27_000).extensionsLeft).toEqual([0, 1]);
  });

  it('an extension while idle or paused adds to the seconds left', () => {
    const m = given(midRack);
    const c = act(pro, initialShotClock(pro, view(m)), 'extension', T0);
    expect(c).toMatchObject({ status: 'idle', remainingMs: 60_000, allowanceMs: 60_000 });
  });

  it('a new rack gives every player their extensions again; per 3 racks only every third rack; per match never', () => {
    for (const [period, expected] of [
      [{ per: 'rack' }, [0, 0]],
      [{ per: 'racks', racks: 3 }, [1, 0]],
      [{ per: 'match' }, [1, 0]],
    ] as const) {
      const s: ShotClockSettings = { ...pro, extensionPeriod: period };
      let m = given({ ...fresh141, start: { score: [20, 15], fouls: [0, 0], innings: [5, 5], highRun: [9, 9], turn: 'A', rack: 2, ballsOnTable: 2 } });
      let c = act(s, initialShotClock(s, view(m)), 'extension', T0);
      ({ m, c } = step(s, m, c, { shot: { call: { ball: 3 }, pocketed: [3] } }, T0 + 1));
      expect(view(m).rack).toBe(3); // the 14th ball: a re-rack starts rack 3
      expect(c.extensionsUsed).toEqual(expected);
    }
  });

  it('an undo does not rewind the clock: the extension stays used', () => {
    let m = given(midRack);
    let c = act(pro, act(pro, initialShotClock(pro, view(m)), 'start', T0), 'extension', T0 + 1);
    ({ m, c } = step(pro, m, c, { shot: { call: { ball: 3 }, pocketed: [3] } }, T0 + 2));
    ({ m, c } = step(pro, m, c, { undo: true }, T0 + 3));
    expect(view(m).steps).toBe(0);
    expect(c).toMatchObject({ status: 'idle', shooter: 'A', extensionsUsed: [1, 0], extended: false, shot: 2 });
    expect(decideShotClock(pro, c, 'extension', T0 + 4, null)).toMatchObject({ ok: false, code: 'no-extension-left' });
  });
});

describe('duplicate presses are harmless (idempotent by action and clock period)', () => {
  const actions: ShotClockAction[] = ['start', 'pause', 'resume', 'reset', 'extension'];
  it('any action repeated at once changes nothing the second time', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...actions), { maxLength: 12 }), fc.constantFrom(...actions), (before, a) => {
        let c = initialShotClock(pro, view(given(midRack)));
        let t = T0;
        for (const x of before) {
          const d = decideShotClock(pro, c, x, (t += 700), null);
          if (d.ok) c = d.clock;
        }
        const first = decideShotClock(pro, c, a, (t += 700), null);
        if (!first.ok) return;
        const second = decideShotClock(pro, first.clock, a, t, null);
        expect(second.ok && second.duplicate).toBe(true);
        if (second.ok) expect(second.clock).toEqual(first.clock);
      }),
      { numRuns: fcRuns(300) },
    );
  });

  it('a press that names an earlier clock period changes nothing', () => {
    const m = given(midRack);
    let c = initialShotClock(pro, view(m));
    const period = c.shot;
    ({ c } = step(pro, m, c, { shot: { call: { ball: 3 }, pocketed: [3] } }, T0));
    expect(decideShotClock(pro, c, 'start', T0 + 1, null, period)).toEqual({ ok: true, clock: c, duplicate: true });
    expect(decideShotClock(pro, c, 'start', T0 + 1, null, c.shot)).toMatchObject({ ok: true, duplicate: false });
  });
});

describe('what displays show', () => {
  const running = (deadline: number) => ({ status: 'running' as const, deadline, remainingMs: 30_000 });
  it('the shown second is the ceiling of the time left; the next change is timed to the millisecond', () => {
    expect(shownSeconds(running(T0 + 29_001), T0)).toBe(30);
    expect(shownSeconds(running(T0 + 29_000), T0)).toBe(29);
    expect(shownSeconds(running(T0), T0 + 5)).toBe(0);
    expect(msToNextSecond(running(T0 + 29_001), T0)).toBe(1);
    expect(msToNextSecond(running(T0 + 29_000), T0)).toBe(1000);
    expect(msToNextSecond(running(T0 + 2_500), T0)).toBe(500);
    expect(msToNextSecond(running(T0), T0)).toBeNull();
    expect(msToNextSecond({ status: 'paused', deadline: null, remainingMs: 12_000 }, T0)).toBeNull();
    expect(msToNextSecond({ status: 'idle', deadline: null, remainingMs: 30_000 }, T0)).toBeNull();
  });

  it('every change of the shown second lands exactly on a timer set by msToNextSecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 90_000 }), (left) => {
        const v = running(T0 + left);
        let now = T0;
        let shown = shownSeconds(v, now);
        for (let wait = msToNextSecond(v, now); wait !== null; wait = msToNextSecond(v, now)) {
          expect(shownSeconds(v, now + wait - 1)).toBe(shown);
          now += wait;
          expect(shownSeconds(v, now)).toBe(shown - 1);
          shown -= 1;
        }
        expect(shown).toBe(0);
      }),
      { numRuns: fcRuns(200) },
    );
  });

  it('warning colours at 10 and 5 s; on air from 10 s in the pro preset, never while idle', () => {
    const v = shotClockView(pro, initialShotClock(pro, view(given(midRack))), T0);
    expect([11, 10, 6, 5, 0].map((s) => warningLevel(v, s))).toEqual(['none', 'warning', 'warning', 'urgent', 'urgent']);
    expect(onAir(v, 5)).toBe(false);
    expect(onAir({ ...v, status: 'running' }, 11)).toBe(false);
    expect(onAir({ ...v, status: 'running' }, 10)).toBe(true);
    expect(onAir({ ...v, status: 'paused', showFromSeconds: null }, 30)).toBe(true);
  });

  it('the match clock counts time played from the first start, stops while paused and for good when the match is won', () => {
    const limit: ShotClockSettings = { ...pro, matchClock: { kind: 'limit', minutes: 30, warningMinutes: 5 } };
    const m = given(midRack);
    let c = act(limit, initialShotClock(limit, view(m)), 'start', T0);
    c = act(limit, c, 'pause', T0 + 20_000);
    c = act(limit, c, 'resume', T0 + 600_000);
    const v = shotClockView(limit, c, T0 + 610_000);
    expect(matchClockMs(v, T0 + 610_000)).toEqual({ playedMs: 30_000, leftMs: 30 * 60_000 - 30_000 });
    expect(shotClockView(pro, c, T0).match).toMatchObject({ limitMs: null });
    expect(shotClockView({ ...pro, matchClock: { kind: 'off' } }, c, T0).match).toBeNull();
    ({ c } = step(limit, m, c, { shot: { call: { ball: 3 }, pocketed: [3] } }, T0 + 615_000));
    expect(matchClockMs(shotClockView(limit, c, T0 + 615_000), T0 + 815_000)?.playedMs).toBe(235_000);
    const near = given({
      ...fresh141,
      targets: [21, 100],
      start: { score: [20, 15], fouls: [0, 0], innings: [5, 5], highRun: [9, 9], turn: 'A', rack: 2, ballsOnTable: 9 },
    });
    let w = act(limit, initialShotClock(limit, view(near)), 'start', T0);
    w = step(limit, near, w, { shot: { call: { ball: 3 }, pocketed: [3] } }, T0 + 10_000).c;
    expect(matchClockMs(shotClockView(limit, w, T0 + 10_000), T0 + 99_000)?.playedMs).toBe(10_000);
  });
});

describe('settings', () => {
  it('the presets are valid; each bad field is named', () => {
    expect(shotClockSettingsProblem(CLOCK_PRESETS.pro)).toBeNull();
    expect(shotClockSettingsProblem(CLOCK_PRESETS.league)).toBeNull();
    const bad: [Partial<ShotClockSettings>, string][] = [
      [{ shotSeconds: 0 }, 'clock.shotSeconds'],
      [{ firstShotSeconds: 1.5 }, 'clock.firstShotSeconds'],
      [{ pushOutSeconds: 3601 }, 'clock.pushOutSeconds'],
      [{ extensionSeconds: -1 }, 'clock.extensionSeconds'],
      [{ extensionsPerPlayer: 100 }, 'clock.extensionsPerPlayer'],
      [{ extensionPeriod: { per: 'racks', racks: 0 } }, 'clock.extensionPeriod.racks'],
      [{ urgentSeconds: 11 }, 'clock.urgentSeconds'],
      [{ showFromSeconds: 0 }, 'clock.showFromSeconds'],
      [{ matchClock: { kind: 'limit', minutes: 0, warningMinutes: 0 } }, 'clock.matchClock.minutes'],
      [{ matchClock: { kind: 'limit', minutes: 30, warningMinutes: 31 } }, 'clock.matchClock.warningMinutes'],
    ];
    for (const [patch, field] of bad) expect(shotClockSettingsProblem({ ...pro, ...patch } as ShotClockSettings)?.field).toBe(field);
  });
});

describe('the offset to the server clock', () => {
  it('takes the sample with the shortest round trip, its server time at the midpoint', () => {
    expect(offsetFromSamples([])).toBeNull();
    expect(
      offsetFromSamples([
        { sent: 1000, received: 1200, server: 5100 },
        { sent: 2000, received: 2020, server: 6060 },
        { sent: 3000, received: 3100, server: 7000 },
      ]),
    ).toEqual({ offset: 4050, roundTrip: 20 });
  });

  it('its error is at most half the round trip, whatever the delays each way', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.array(fc.tuple(fc.nat(5000), fc.nat(200), fc.nat(200)), { minLength: 1, maxLength: 10 }),
        (offset, trips) => {
          const samples = trips.map(([at, up, down]) => ({ sent: at, server: at + up + offset, received: at + up + down }));
          const r = offsetFromSamples(samples)!;
          expect(Math.abs(r.offset - offset)).toBeLessThanOrEqual(r.roundTrip / 2);
        },
      ),
      { numRuns: fcRuns(200) },
    );
  });
});

/** Keep the fixtures honest: the Rotation push-out path is what the rules say. */
it('fixture: the Rotation match after the break allows a push out', () => {
  const m = given(freshRot, [{ shot: { firstContact: 1, pocketed: [2] } }]);
  const s: MatchState = view(m);
  expect(s.pushOutAvailable).toBe(true);
});
