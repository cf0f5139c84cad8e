/**
 * Rotation entry logic: picker drafts → steps, the last-ball question, and the foul placement options,
 * checked against the real rules engine (the options offered are exactly the ones it accepts).
 */
import { describe, expect, test } from 'vitest';
import { applyStep, replay, view, type Match, type MatchState, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import {
  callMade,
  calledBall,
  contactFromValue,
  contactOf,
  emptyDraft,
  firstHitOptions,
  impliedFoul,
  lowestKitchenMatters,
  madeShot,
  nextCalled,
  placementOptions,
  pointsOf,
  pushOutShot,
  ROTATION_FOULS,
  rotationBreakShot,
  rotationFoulShot,
  safetyShot,
  setCalled,
  toggleBall,
  type RotationDraft,
} from '../../web/src/scorer/rotation';
import { kitchenQuestion } from '../../web/src/scorer/questions';

const ROT = { discipline: 'rotation', players: ['Ann', 'Bob'] } as const;

/** The engine's match after `steps` (each must be accepted; a refusal throws naming the step). */
const play = (setupIn: unknown, steps: Step[]): Match => replay(parseSetup(setupIn), steps);
const mid = (onTable: number[], extra: object = {}) => ({ ...ROT, start: { score: [30, 20], turn: 'A', onTable }, ...extra });

describe('picker draft', () => {
  test('toggles only balls on the table; first contact defaults to the lowest ball', () => {
    const s = view(play(mid([3, 5, 9]), []));
    let d = toggleBall(emptyDraft(), 5, s.onTable!);
    d = toggleBall(d, 4, s.onTable!); // not on the table: ignored
    expect(d.picked).toEqual([5]);
    d = toggleBall(toggleBall(d, 9, s.onTable!), 5, s.onTable!);
    expect(d.picked).toEqual([9]);
    expect(contactOf(s, d)).toBe(3);
    expect(contactOf(s, { ...d, firstContact: null })).toBeNull();
    expect(pointsOf([9, 5])).toBe(14);
  });

  test('a legal shot scores the face values of the picked balls (R-6)', () => {
    const s = view(play(mid([3, 5, 9]), []));
    const shot = madeShot(s, { picked: [9, 3] }, false);
    expect(shot).toEqual({ firstContact: 3, pocketed: [3, 9] });
    const v = view(play(mid([3, 5, 9]), [{ shot }]));
    expect(v.score).toEqual([42, 20]);
    expect(v.onTable).toEqual([5]);
  });

  test('call mode: the first ball tapped is the called one; a call not made scores nothing (R-6a)', () => {
    const setup = mid([3, 5, 9], { options: { callShot: true } });
    const s = view(play(setup, []));
    expect(madeShot(s, { picked: [9, 3] }, true).call).toEqual({ ball: 9, made: true });
    expect(view(play(setup, [{ shot: madeShot(s, { picked: [9, 3] }, true) }])).score).toEqual([42, 20]);
    const v = view(play(setup, [{ shot: madeShot(s, { picked: [9], calledMade: false }, true) }]));
    expect([v.score, v.turn, v.onTable]).toEqual([[30, 20], 'B', [3, 5, 9]]);
    expect(view(play(setup, [{ shot: safetyShot(s, emptyDraft()) }])).turn).toBe('B');
  });
});

describe('break', () => {
  test('nothing pocketed: 4+ to a cushion is legal, fewer is an illegal break (R-4, R-4b)', () => {
    const s = view(play(ROT, []));
    expect(view(play(ROT, [{ shot: rotationBreakShot(s, emptyDraft(), true) }])).awaiting).toBeNull();
    expect(view(play(ROT, [{ shot: rotationBreakShot(s, emptyDraft(), false) }])).awaiting).toBe('illegal-break-choice');
    const v = view(play(ROT, [{ shot: rotationBreakShot(s, { picked: [2, 9] }, true) }]));
    expect([v.score, v.turn, v.pushOutAvailable]).toEqual([[11, 0], 'A', true]);
  });
});

describe('last ball: cue ball behind the head string (R-11)', () => {
  test('asked only when the shot clears the table without ending the match', () => {
    /** The engine's answer for the draft recorded as a legal shot (`madeShot`, as the panel's record button sends it). */
    const asked = (setupIn: unknown, d: RotationDraft) => {
      const m = play(setupIn, []);
      const s = view(m);
      const callShot = m.setup.discipline === 'rotation' && m.setup.options.callShot;
      return kitchenQuestion(m.setup, s, madeShot(s, d, callShot));
    };
    expect(asked(mid([14, 15]), { picked: [14] })).toBe(false);
    expect(asked(mid([14, 15]), { picked: [15, 14] })).toBe(true);
    expect(asked(mid([14, 15], { options: { format: 'single-rack-61' } }), { picked: [15, 14] })).toBe(false);
    expect(asked({ ...ROT, start: { score: [110, 20], turn: 'A', onTable: [14, 15] } }, { picked: [14, 15] })).toBe(false); // wins the match
    // Call shot: the rack ends only on a made call (R-11, R-6a).
    expect(asked(mid([14, 15], { options: { callShot: true } }), { picked: [15, 14] })).toBe(true);
    expect(asked(mid([14, 15], { options: { callShot: true } }), { picked: [15, 14], calledMade: false })).toBe(false);
  });

  test('the answer decides who breaks the next rack', () => {
    const s = view(play(mid([15]), []));
    const yes = view(play(mid([15]), [{ shot: madeShot(s, { picked: [15] }, false, true) }]));
    const no = view(play(mid([15]), [{ shot: madeShot(s, { picked: [15] }, false, false) }]));
    expect([yes.turn, yes.rack, yes.breakShot]).toEqual(['A', 2, true]);
    expect([no.turn, no.rack, no.breakShot]).toEqual(['B', 2, true]);
  });
});

describe('push out and fouls', () => {
  test('push out after the break leaves the choice to the opponent (R-10)', () => {
    const s0 = view(play(ROT, []));
    const afterBreak = play(ROT, [{ shot: rotationBreakShot(s0, emptyDraft(), true) }]);
    const s = view(afterBreak);
    expect(s.pushOutAvailable).toBe(true);
    const v = view(play(ROT, [{ shot: rotationBreakShot(s0, emptyDraft(), true) }, { shot: pushOutShot(s, emptyDraft()) }]));
    expect([v.awaiting, v.turn]).toEqual(['push-out-choice', 'A']);
  });

  test('every foul button is a foul the engine leaves a placement for (R-7, R-8)', () => {
    const setup = mid([3, 5, 9]);
    const s = view(play(setup, []));
    for (const f of ROTATION_FOULS) {
      const d = f === 'off-table' ? { picked: [9] } : emptyDraft();
      const v = view(play(setup, [{ shot: rotationFoulShot(s, d, f) }]));
      expect([v.awaiting, v.turn, v.score], f).toEqual(['foul-placement', 'B', [30, 20]]);
    }
    expect(rotationFoulShot(s, { picked: [], firstContact: 9 }, 'wrong-ball').firstContact).toBe(9);
  });
});

describe('foul placement options (R-8, R-9, D-20)', () => {
  const keys = (ps: { cueBall: string; lowestBall: string }[]) => ps.map((p) => `${p.cueBall}/${p.lowestBall}`).sort();

  test('ordinary foul: 6 combinations, "as is / as is" first', () => {
    const o = placementOptions({ thirdFoul: false, cueBallLost: false, lowestBallLost: false }, false);
    expect(o).toHaveLength(6);
    expect(o[0]).toEqual({ cueBall: 'as-is', lowestBall: 'as-is' });
  });
  test('scratch: no cue ball as is; lowest respotted: no lowest as is; kitchen + lowest behind: spot it', () => {
    expect(keys(placementOptions({ thirdFoul: false, cueBallLost: true, lowestBallLost: false }, false))).toEqual([
      'kitchen/as-is',
      'kitchen/center-spot',
      'kitchen/foot-spot',
    ]);
    expect(keys(placementOptions({ thirdFoul: false, cueBallLost: false, lowestBallLost: true }, false))).toEqual([
      'as-is/center-spot',
      'as-is/foot-spot',
      'kitchen/center-spot',
      'kitchen/foot-spot',
    ]);
    expect(keys(placementOptions({ thirdFoul: false, cueBallLost: false, lowestBallLost: false }, true))).toEqual([
      'as-is/as-is',
      'as-is/center-spot',
      'as-is/foot-spot',
      'kitchen/center-spot',
      'kitchen/foot-spot',
    ]);
    expect(keys(placementOptions({ thirdFoul: true, cueBallLost: true, lowestBallLost: false }, false))).toEqual([
      'anywhere/as-is',
      'anywhere/center-spot',
      'anywhere/foot-spot',
    ]);
  });

  /** Offered = accepted: every offered option is accepted, every other combination refused. */
  function checkAgainstEngine(setup: unknown, foul: Step[], lowestInKitchen: boolean) {
    const m = play(setup, foul);
    const s: MatchState = view(m);
    expect(s.awaiting).toBe('foul-placement');
    expect(s.foulPlacement).not.toBeNull();
    const offered = keys(placementOptions(s.foulPlacement!, lowestInKitchen));
    const accepted: string[] = [];
    for (const cueBall of ['as-is', 'kitchen', 'anywhere'] as const) {
      for (const lowestBall of ['as-is', 'center-spot', 'foot-spot'] as const) {
        const r = applyStep(m, { choice: { cueBall, lowestBall, lowestBallInKitchen: lowestInKitchen } });
        if (r.ok) accepted.push(`${cueBall}/${lowestBall}`);
      }
    }
    expect(offered).toEqual(accepted.sort());
  }

  test('offered = accepted by the engine: scratch pocketing the lowest ball', () => {
    const setup = mid([3, 5, 9]);
    const s = view(play(setup, []));
    const shot = rotationFoulShot(s, { picked: [3] }, 'scratch');
    checkAgainstEngine(setup, [{ shot }], false);
    checkAgainstEngine(setup, [{ shot }], true);
  });

  test('offered = accepted by the engine: ordinary foul, lowest behind the head string', () => {
    const setup = mid([3, 5, 9]);
    const s = view(play(setup, []));
    const shot = rotationFoulShot(s, emptyDraft(), 'no-rail');
    checkAgainstEngine(setup, [{ shot }], true);
    checkAgainstEngine(setup, [{ shot }], false);
  });

  test('offered = accepted by the engine: third foul (ball in hand anywhere)', () => {
    const setup = { ...ROT, start: { score: [30, 20], turn: 'A', onTable: [3, 5, 9], fouls: [2, 0] } };
    const s = view(play(setup, []));
    const shot = rotationFoulShot(s, emptyDraft(), 'no-contact');
    checkAgainstEngine(setup, [{ shot }], false);
    checkAgainstEngine(setup, [{ shot }], false);
  });
});

describe('first contact: one tap for the foul it makes, no duplicate in the list', () => {
  test('the first-hit list has each ball on the table once, the lowest marked as the default', () => {
    const s = view(play(mid([3, 5, 9]), []));
    const opts = firstHitOptions(s);
    expect(opts.map((o) => o.value)).toEqual(['3', '5', '9', 'none']);
    expect(opts.filter((o) => o.isDefault).map((o) => o.ball)).toEqual([3]);
    expect(new Set(opts.map((o) => o.value)).size).toBe(opts.length);
    expect(contactFromValue(s, '3')).toBeUndefined(); // the lowest ball = the default
    expect(contactFromValue(s, '9')).toBe(9);
    expect(contactFromValue(s, 'none')).toBeNull();
    const brk = view(play(ROT, []));
    expect(
      firstHitOptions(brk)
        .filter((o) => o.isDefault)
        .map((o) => o.ball),
    ).toEqual([1]);
  });

  test('a wrong first ball or no contact is the foul the button then records in one tap (R-7)', () => {
    const setup = mid([3, 5, 9]);
    const s = view(play(setup, []));
    expect(impliedFoul(s, emptyDraft())).toBeNull();
    expect(impliedFoul(s, { picked: [], firstContact: 5 })).toBe('wrong-ball');
    expect(impliedFoul(s, { picked: [], firstContact: null })).toBe('no-contact');
    for (const d of [
      { picked: [9], firstContact: 5 },
      { picked: [], firstContact: null },
    ]) {
      const f = impliedFoul(s, d)!;
      const shot = rotationFoulShot(s, d, f);
      expect(shot.firstContact).toBe(d.firstContact);
      const v = view(play(setup, [{ shot }]));
      expect([v.awaiting, v.fouls, v.score], JSON.stringify(d)).toEqual(['foul-placement', [1, 0], [30, 20]]);
    }
    // On the break too: the 1 must be hit first.
    const brk = view(play(ROT, []));
    expect(impliedFoul(brk, { picked: [], firstContact: 2 })).toBe('wrong-ball');
    const v = view(play(ROT, [{ shot: rotationFoulShot(brk, { picked: [], firstContact: 2 }, 'wrong-ball') }]));
    expect(v.last?.foul).toBe('foul');
  });
});

describe('"the lowest ball lies behind the head string" is asked only when it can change the choices (R-8)', () => {
  /** The engine's own answer: do the accepted placements differ with the lowest ball behind the head string? */
  function engineSaysItMatters(m: Match): boolean {
    const accepted = (inKitchen: boolean) => {
      const out: string[] = [];
      for (const cueBall of ['as-is', 'kitchen', 'anywhere'] as const) {
        for (const lowestBall of ['as-is', 'center-spot', 'foot-spot'] as const) {
          if (applyStep(m, { choice: { cueBall, lowestBall, lowestBallInKitchen: inKitchen } }).ok) out.push(`${cueBall}/${lowestBall}`);
        }
      }
      return out.join();
    };
    return accepted(false) !== accepted(true);
  }
  const cases: [string, unknown, (s: MatchState) => Step][] = [
    ['ordinary foul', mid([3, 5, 9]), (s) => ({ shot: rotationFoulShot(s, emptyDraft(), 'no-rail') })],
    ['scratch', mid([3, 5, 9]), (s) => ({ shot: rotationFoulShot(s, emptyDraft(), 'scratch') })],
    ['lowest ball pocketed on the foul', mid([3, 5, 9]), (s) => ({ shot: rotationFoulShot(s, { picked: [3] }, 'scratch') })],
    ['lowest ball off the table', mid([3, 5, 9]), (s) => ({ shot: rotationFoulShot(s, { picked: [3] }, 'off-table') })],
    [
      'third foul',
      { ...ROT, start: { score: [30, 20], turn: 'A', onTable: [3, 5, 9], fouls: [2, 0] } },
      (s) => ({ shot: rotationFoulShot(s, emptyDraft(), 'no-contact') }),
    ],
  ];
  for (const [name, setup, foul] of cases) {
    test(name, () => {
      const m = play(setup, [foul(view(play(setup, [])))]);
      const s = view(m);
      expect(s.awaiting).toBe('foul-placement');
      expect(lowestKitchenMatters(s.foulPlacement!)).toBe(engineSaysItMatters(m));
    });
  }
  test('so: asked after an ordinary foul or a scratch, not when the lowest ball left the table, not after a third foul', () => {
    expect(lowestKitchenMatters({ thirdFoul: false, cueBallLost: false, lowestBallLost: false })).toBe(true);
    expect(lowestKitchenMatters({ thirdFoul: false, cueBallLost: true, lowestBallLost: false })).toBe(true);
    expect(lowestKitchenMatters({ thirdFoul: false, cueBallLost: true, lowestBallLost: true })).toBe(false);
    expect(lowestKitchenMatters({ thirdFoul: false, cueBallLost: false, lowestBallLost: true })).toBe(false);
    expect(lowestKitchenMatters({ thirdFoul: true, cueBallLost: false, lowestBallLost: false })).toBe(false);
  });
});

describe('call shot: the called ball can be changed (R-6a)', () => {
  const setup = mid([3, 5, 9, 12], { options: { callShot: true } });
  const s = view(play(setup, []));

  test('the first ball tapped is called until the scorer names another; un-tapping it goes back to the first', () => {
    let d = toggleBall(toggleBall(emptyDraft(), 3, s.onTable!), 9, s.onTable!);
    expect(calledBall(d)).toBe(3);
    d = setCalled(d, 9, s.onTable!);
    expect(calledBall(d)).toBe(9);
    expect(setCalled(d, 4, s.onTable!)).toBe(d); // not on the table
    expect(calledBall(toggleBall(d, 9, s.onTable!))).toBe(3);
    expect(calledBall(nextCalled(d))).toBe(3); // the C key cycles through the tapped balls
    expect(calledBall(nextCalled(nextCalled(d)))).toBe(9);
  });

  test('called 9 with 3 and 9 pocketed: all score; called 12 (not pocketed): "not made", nothing scores, balls respotted', () => {
    const both = { picked: [3, 9], called: 9 };
    expect(madeShot(s, both, true).call).toEqual({ ball: 9, made: true });
    expect(view(play(setup, [{ shot: madeShot(s, both, true) }])).score).toEqual([42, 20]);
    const wrong = { picked: [3, 9], called: 12 };
    expect(callMade(wrong)).toBe(false);
    expect(madeShot(s, wrong, true).call).toEqual({ ball: 12, made: false });
    const v = view(play(setup, [{ shot: madeShot(s, wrong, true) }]));
    expect([v.score, v.turn, v.onTable]).toEqual([[30, 20], 'B', [3, 5, 9, 12]]);
  });

  test('clearing the table on a failed call does not ask about the cue ball (no rack won)', () => {
    const m = play(mid([3, 5], { options: { callShot: true } }), []);
    const last = view(m);
    const asked = (d: RotationDraft) => kitchenQuestion(m.setup, last, madeShot(last, d, true));
    expect(asked({ picked: [3, 5] })).toBe(true);
    expect(asked({ picked: [3, 5], calledMade: false })).toBe(false);
    expect(asked({ picked: [3, 5], called: 5 })).toBe(true);
  });
});
