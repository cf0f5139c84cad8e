/**
 * 14-1 entry logic: the steps the console builds from taps, checked by shape and by running them through
 * the real rules engine (the server applies the same engine), so a tap sequence scores what the rules say.
 */
import { describe, expect, test } from 'vitest';
import { applyStep, newMatch, replay, view, type Match, type Step } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import {
  BREAK_FOULS,
  breakShot,
  DEFAULT_BREAK,
  foulShot,
  madeCount,
  madeShot,
  missShot,
  NEITHER,
  rackAreaFollowUp,
  rackAreaStep,
  requiredPlacement,
  safetyShot,
  straightMode,
  STRAIGHT_FOULS,
  toggleBreakFoul,
  type BreakAnswers,
  type BreakFoul,
} from '../../web/src/scorer/straight';
import { previewStep } from '../../web/src/scorer/preview';
import { rackAreaQuestion, warningOffered } from '../../web/src/scorer/questions';

/** The engine's match after `steps` (each must be accepted; a refusal throws naming the step). */
const play = (setupIn: unknown, steps: Step[]): Match => replay(parseSetup(setupIn), steps);

describe('14-1 shot builders', () => {
  test('ball made is one tap: call made, count of balls, clamped to 1..15', () => {
    expect(madeShot(1)).toEqual({ call: { made: true }, pocketed: 1 });
    expect(madeShot(3)).toEqual({ call: { made: true }, pocketed: 3 });
    expect(madeShot(0).pocketed).toBe(1);
    expect(madeShot(40).pocketed).toBe(15);
    expect(madeShot(1, [7, 3])).toEqual({ call: { ball: 7, made: true }, pocketed: [7, 3] });
    expect(missShot()).toEqual({ call: { made: false } });
    expect(safetyShot()).toEqual({ call: 'safety' });
  });

  test('each foul button builds the fact the rules judge (S-12)', () => {
    const s = { onTable: [2, 9, 14] };
    expect(foulShot('scratch', s)).toMatchObject({ cueBall: 'scratch' });
    expect(foulShot('no-rail', s)).toMatchObject({ rail: false });
    expect(foulShot('no-contact', s)).toMatchObject({ firstContact: null });
    expect(foulShot('off-table', s)).toMatchObject({ offTable: [14] });
    expect(foulShot('off-table', s, 9)).toMatchObject({ offTable: [9] });
    expect(foulShot('touched-ball', s)).toMatchObject({ fouls: ['touched-ball'] });
    expect(STRAIGHT_FOULS).toHaveLength(7);
  });

  test('every foul button costs exactly one point through the engine', () => {
    const setup = { discipline: '14-1', players: ['Ann', 'Bob'], start: { score: [10, 10], turn: 'A', ballsOnTable: 9 } };
    for (const f of STRAIGHT_FOULS) {
      const m0 = newMatch(parseSetup(setup));
      const r = applyStep(m0, { shot: foulShot(f, view(m0)) });
      expect(r.ok, f).toBe(true);
      if (r.ok) {
        expect(view(r.match).score, f).toEqual([9, 10]);
        expect(view(r.match).turn, f).toBe('B');
      }
    }
  });
});

describe('14-1 opening break asks only what decides it (S-8), fouls included (S-9, S-10)', () => {
  const fresh = (setupIn: object = { discipline: '14-1', players: ['Ann', 'Bob'] }) => play(setupIn, []);
  const verdictOf = (a: BreakAnswers, m = fresh()) => previewStep(m.setup, view(m), { shot: breakShot(a) });

  test('the shot carries the answers: called ball made, cushions, scratch and other fouls', () => {
    expect(breakShot(DEFAULT_BREAK)).toEqual({ call: 'safety', breakRails: { objectBalls: 2, cueBall: true } });
    expect(breakShot({ ...DEFAULT_BREAK, calledMade: true, pocketed: 2, fouls: ['scratch'] })).toEqual({
      call: { made: true },
      pocketed: 2,
      cueBall: 'scratch',
    });
    expect(breakShot({ ...DEFAULT_BREAK, calledMade: true, fouls: ['scratch', 'double-hit'] })).toEqual({
      call: { made: true },
      pocketed: 1,
      cueBall: 'scratch',
      fouls: ['double-hit'],
    });
    expect(breakShot({ ...DEFAULT_BREAK, cueBall: 'no-rail', objectBalls: 1, fouls: ['touched-ball'] })).toEqual({
      call: 'safety',
      breakRails: { objectBalls: 1, cueBall: false },
      fouls: ['touched-ball'],
    });
    const t = toggleBreakFoul(toggleBreakFoul(DEFAULT_BREAK, 'feet-off-floor'), 'scratch');
    expect(t.fouls).toEqual(['scratch', 'feet-off-floor']);
    expect(toggleBreakFoul(t, 'scratch').fouls).toEqual(['feet-off-floor']);
  });

  test('previews (from the engine): a called ball made with a scratch is a legal break with a −1 foul', () => {
    expect(verdictOf(DEFAULT_BREAK)).toEqual({ kind: 'legal' });
    expect(verdictOf({ ...DEFAULT_BREAK, calledMade: true, pocketed: 2 })).toEqual({ kind: 'scores', points: 2 });
    expect(verdictOf({ ...DEFAULT_BREAK, calledMade: true, fouls: ['scratch'] })).toEqual({ kind: 'foul', penalty: 1 });
    expect(verdictOf({ ...DEFAULT_BREAK, calledMade: true, fouls: ['feet-off-floor'] })).toEqual({ kind: 'foul', penalty: 1 });
    expect(verdictOf({ ...DEFAULT_BREAK, fouls: ['touched-ball'] })).toEqual({ kind: 'foul', penalty: 1 });
    expect(verdictOf({ ...DEFAULT_BREAK, objectBalls: 1 })).toEqual({ kind: 'breaking-foul', penalty: 2 });
    expect(verdictOf({ ...DEFAULT_BREAK, objectBalls: 1, fouls: ['double-hit'] })).toEqual({ kind: 'breaking-foul', penalty: 2 });
    expect(verdictOf({ ...DEFAULT_BREAK, cueBall: 'no-rail' })).toEqual({ kind: 'breaking-foul', penalty: 2 });
    // S-8 / D-3: a scratch counts as the cue ball reaching a cushion, unless the option says otherwise.
    expect(verdictOf({ ...DEFAULT_BREAK, cueBall: 'no-rail', fouls: ['scratch'] })).toEqual({ kind: 'foul', penalty: 1 });
    const strict = fresh({ discipline: '14-1', players: ['Ann', 'Bob'], options: { scratchCountsAsCueRailOnBreak: false } });
    expect(verdictOf({ ...DEFAULT_BREAK, cueBall: 'no-rail', fouls: ['scratch'] }, strict)).toEqual({ kind: 'breaking-foul', penalty: 2 });
  });

  test('every answer combination: the preview is what the engine then records', () => {
    const setup = { discipline: '14-1', players: ['Ann', 'Bob'] };
    const foulSets: BreakFoul[][] = [[], ['scratch'], ['touched-ball'], ['scratch', 'double-hit'], [...BREAK_FOULS]];
    for (const calledMade of [true, false]) {
      for (const cueBall of ['rail', 'no-rail'] as const) {
        for (const objectBalls of [0, 1, 2] as const) {
          for (const fouls of foulSets) {
            const a: BreakAnswers = { calledMade, pocketed: 2, cueBall, objectBalls, fouls };
            const v = view(play(setup, [{ shot: breakShot(a) }]));
            const p = verdictOf(a);
            const label = JSON.stringify(a);
            // The S-8 requirement: called ball made, or cue ball (a scratch counts) and 2+ object balls to a cushion.
            const met = calledMade || (objectBalls === 2 && (cueBall === 'rail' || fouls.includes('scratch')));
            if (!met) expect([p, v.score, v.awaiting], label).toEqual([{ kind: 'breaking-foul', penalty: 2 }, [-2, 0], 'break-foul-choice']);
            else if (fouls.length > 0) expect([p, v.score, v.awaiting, v.turn], label).toEqual([{ kind: 'foul', penalty: 1 }, [-1, 0], null, 'B']);
            else if (calledMade) expect([p, v.score, v.turn], label).toEqual([{ kind: 'scores', points: 2 }, [2, 0], 'A']);
            else expect([p, v.score, v.turn, v.awaiting], label).toEqual([{ kind: 'legal' }, [0, 0], 'B', null]);
            expect(v.ballInHand, label).toBe(met && fouls.includes('scratch') ? 'kitchen' : null);
          }
        }
      }
    }
  });

  test('a break foul that is a third foul says so (WPA: break fouls count; stalemate keeps the foul count)', () => {
    const m = play({ discipline: '14-1', ruleset: 'wpa', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 10, fouls: [2, 0] } }, [
      { stalemate: { breaker: 'A' } },
    ]);
    expect(view(m).breakShot).toBe(true);
    expect(verdictOf({ ...DEFAULT_BREAK, fouls: ['scratch'] }, m)).toEqual({ kind: 'third-foul', penalty: 16 });
  });
});

describe('14-1 ball count: one source of truth', () => {
  test('picked ball numbers decide the count; otherwise the counter', () => {
    expect(madeCount(3, false, [])).toEqual({ n: 3, fromNumbers: false });
    expect(madeCount(3, true, [])).toEqual({ n: 3, fromNumbers: false });
    expect(madeCount(3, true, [4, 9])).toEqual({ n: 2, fromNumbers: true });
    expect(madeCount(1, false, [4, 9])).toEqual({ n: 1, fromNumbers: false }); // picker closed: numbers ignored
    const m = madeCount(3, true, [4, 9]);
    expect(madeShot(m.n, m.fromNumbers ? [4, 9] : undefined)).toEqual({ call: { ball: 4, made: true }, pocketed: [4, 9] });
  });
});

describe('14-1 re-rack questions (S-16–S-18)', () => {
  /** The engine's answer for `pocketed` balls made (the counter) or named, from A at the table with `ballsOnTable`. */
  const asked = (ballsOnTable: number, pocketed: number | number[], score: [number, number] = [20, 10]) => {
    const setup = parseSetup({ discipline: '14-1', players: ['Ann', 'Bob'], start: { score, turn: 'A', ballsOnTable } });
    const shot = typeof pocketed === 'number' ? madeShot(pocketed) : madeShot(pocketed.length, pocketed);
    return rackAreaQuestion(setup, view(newMatch(setup)), shot);
  };

  test('asked only when a scoring shot leaves 1 or 0 balls and does not win', () => {
    expect(asked(5, 1)).toBeNull();
    expect(asked(2, 1)).toBe(1);
    expect(asked(2, 2)).toBe(0);
    expect(asked(2, 1, [99, 10])).toBeNull(); // the shot wins the match (S-21)
  });

  test('not asked for a shot that does not score, nor for one the engine refuses', () => {
    const setup = parseSetup({ discipline: '14-1', players: ['Ann', 'Bob'], start: { score: [20, 10], turn: 'A', ballsOnTable: 2 } });
    const s = view(newMatch(setup));
    expect(rackAreaQuestion(setup, s, missShot())).toBeNull();
    expect(rackAreaQuestion(setup, s, foulShot('scratch', s))).toBeNull();
    expect(asked(2, 3)).toBeNull(); // more balls than the table holds: refused (the refusal comes back on send)
    // A rack area already in the draft is ignored: the question is about the shot.
    expect(rackAreaQuestion(setup, s, { ...madeShot(1), rackArea: { cueBall: true } })).toBe(1);
  });

  test('follow-ups: break ball behind the head string, head spot taken', () => {
    expect(rackAreaFollowUp(1, NEITHER)).toBeNull();
    expect(rackAreaFollowUp(1, { cueBall: true, breakBall: false })).toBe('break-ball-in-kitchen');
    expect(rackAreaFollowUp(1, { cueBall: true, breakBall: false, breakBallInKitchen: false })).toBeNull();
    expect(rackAreaFollowUp(1, { cueBall: true, breakBall: false, breakBallInKitchen: true })).toBe('head-spot-taken');
    expect(rackAreaFollowUp(1, { cueBall: false, breakBall: true })).toBe('head-spot-taken');
    expect(rackAreaFollowUp(1, { cueBall: true, breakBall: true })).toBeNull();
    expect(rackAreaFollowUp(0, { cueBall: true })).toBeNull();
  });

  const cases: [string, 0 | 1, object][] = [
    ['(e) neither', 1, NEITHER],
    ['(a) cue ball, break ball in front of the head string', 1, { cueBall: true, breakBall: false, breakBallInKitchen: false }],
    ['(a) cue ball, break ball behind the head string', 1, { cueBall: true, breakBall: false, breakBallInKitchen: true, headSpotTaken: false }],
    ['(a) cue ball, break ball on the head spot', 1, { cueBall: true, breakBall: false, breakBallInKitchen: true, headSpotTaken: true }],
    ['(b) break ball', 1, { cueBall: false, breakBall: true, headSpotTaken: false }],
    ['(b) break ball, cue ball on the head spot', 1, { cueBall: false, breakBall: true, headSpotTaken: true }],
    ['(c) both', 1, { cueBall: true, breakBall: true }],
    ['S-18 neither', 0, { cueBall: false }],
    ['S-18 cue ball in the rack area', 0, { cueBall: true }],
  ];
  test.each(cases)('placement shown = placement the engine applies: %s', (_name, left, area) => {
    const ballsOnTable = left === 1 ? 3 : 2;
    const shot = { ...madeShot(2), rackArea: rackAreaStep(left, area) };
    const v = view(play({ discipline: '14-1', players: ['Ann', 'Bob'], start: { score: [20, 10], turn: 'A', ballsOnTable } }, [{ shot }]));
    expect(v.rackPlacement).toEqual(requiredPlacement(left, area));
    expect(v.ballsOnTable).toBe(15);
    expect(v.turn).toBe('A');
    expect(v.rack).toBe(2);
  });
});

describe('two-foul warning button (S-15, D-6): offered when the engine takes the warning', () => {
  const setupIn = (requireTwoFoulWarning: boolean, fouls: [number, number]) => ({
    discipline: '14-1',
    players: ['Ann', 'Bob'],
    options: { requireTwoFoulWarning },
    start: { turn: 'A', ballsOnTable: 9, fouls },
  });
  const offered = (m: Match) => (['A', 'B'] as const).filter((p) => warningOffered(m.setup, view(m), p));

  test('only for a player on two fouls, only with the option, and not twice', () => {
    expect(offered(play(setupIn(true, [2, 1]), []))).toEqual(['A']);
    expect(offered(play(setupIn(true, [1, 2]), []))).toEqual(['B']);
    expect(offered(play(setupIn(false, [2, 2]), []))).toEqual([]);
    expect(offered(play(setupIn(true, [0, 1]), []))).toEqual([]);
    expect(offered(play(setupIn(true, [2, 2]), [{ warning: 'A' }]))).toEqual(['B']);
    // Each offered warning is one the engine records.
    const m = play(setupIn(true, [2, 2]), []);
    for (const p of offered(m)) expect(applyStep(m, { warning: p }).ok, p).toBe(true);
  });
});

test('mode: a pending choice blocks shot entry; the break has its own panel', () => {
  const setup = { discipline: '14-1', players: ['Ann', 'Bob'] };
  expect(straightMode(view(play(setup, [])))).toBe('break');
  expect(straightMode(view(play(setup, [{ shot: breakShot({ ...DEFAULT_BREAK, objectBalls: 0 }) }])))).toBe('choice');
  expect(straightMode(view(play(setup, [{ shot: breakShot(DEFAULT_BREAK) }])))).toBe('shot');
  const won = play({ discipline: '14-1', players: ['Ann', 'Bob'], targets: [2, 100], start: { turn: 'A', ballsOnTable: 9 } }, [{ shot: madeShot(2) }]);
  expect(straightMode(view(won))).toBe('over');
});

describe('non-scoring shots keep the balls that dropped (spotted, S-5 / S-13)', () => {
  test('a safety, a miss and a foul carry the named balls; the engine spots them', () => {
    const setup = { discipline: '14-1', ruleset: 'nba', players: ['A', 'B'], targets: [100, 100] };
    for (const shot of [safetyShot([4]), missShot([4, 9]), foulShot('scratch', { onTable: null }, undefined, [4])]) {
      expect(Array.isArray(shot.pocketed) && shot.pocketed.includes(4)).toBe(true);
      const m = play(setup, [{ shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } }]);
      const r = applyStep(m, { shot });
      expect(r.ok).toBe(true);
      if (r.ok) expect(view(r.match).ballsOnTable).toBe(15);
    }
    expect(safetyShot()).toEqual({ call: 'safety' });
    expect(foulShot('off-table', { onTable: null }, 7, [7, 3]).offTable).toEqual([7]);
  });
});
