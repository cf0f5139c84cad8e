/** Rotation rule families, given-when-then (docs/rules.md §4; seed ROT §05–§13). */
import { describe, expect, it } from 'vitest';
import { legalPlacements } from '../../shared/rules/rotation';
import { statsOf, view } from '../../shared/index';
import { accept, expectState, freshRot, given, refuse } from '../helpers/given';

const mid = (onTable: number[], over: Record<string, unknown> = {}, options: Record<string, unknown> = {}) => ({
  ...freshRot,
  options,
  start: { score: [20, 15], fouls: [0, 0], innings: [3, 3], highRun: [10, 9], turn: 'A', rack: 1, onTable, ...over },
});

describe('break (R-4, R-4a, R-4b; ROT §07)', () => {
  it('balls pocketed on a legal break score for the breaker; push out then allowed on the next shot only', () => {
    let m = given(freshRot, [{ shot: { firstContact: 1, pocketed: [4] } }]);
    expectState(m, { score: [4, 0], turn: 'A', pushOutAvailable: true, breakShot: false });
    m = accept(m, { shot: { pushOut: true, pocketed: [2] } });
    expectState(m, { awaiting: 'push-out-choice', turn: 'B', score: [4, 0], onTable: [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] });
    m = accept(m, { choice: 'pass' });
    expectState(m, { turn: 'A', awaiting: null, pushOutAvailable: false, run: 0 });
    m = accept(m, { shot: { firstContact: 1 } });
    expectState(m, { innings: [2, 0], turn: 'B' });
  });

  it('a break that hits another ball first is a foul that counts, and the incoming player may still push out (D-18)', () => {
    let m = given(freshRot, [{ shot: { firstContact: 7, pocketed: [3] } }]);
    expectState(m, { fouls: [1, 0], awaiting: 'foul-placement', turn: 'B', onTable: Array.from({ length: 15 }, (_, i) => i + 1) });
    m = accept(m, { choice: { cueBall: 'as-is', lowestBall: 'as-is' } });
    expectState(m, { pushOutAvailable: true, ballInHand: null });
  });

  it('illegal break accepted: ball in hand behind the head string, push out available, no foul', () => {
    let m = given(freshRot, [{ shot: { breakRails: { objectBalls: 2 } } }]);
    expectState(m, { awaiting: 'illegal-break-choice', turn: 'B', fouls: [0, 0] });
    expect(refuse(m, { choice: 'shoot' }).code).toBe('wrong-choice');
    m = accept(m, { choice: 'accept' });
    expectState(m, { turn: 'B', ballInHand: 'kitchen', breakShot: false, pushOutAvailable: true, rack: 1 });
  });

  it('illegalBreakPolicy "foul" treats it as a foul with placement', () => {
    const m = given({ ...freshRot, options: { illegalBreakPolicy: 'foul' } }, [{ shot: { breakRails: { objectBalls: 2 } } }]);
    expectState(m, { awaiting: 'foul-placement', fouls: [1, 0] });
  });
});

describe('fouls and placement (R-7, R-8; ROT §10)', () => {
  const foulShots = [
    { firstContact: 6 },
    { firstContact: null, pocketed: [] },
    { cueBall: 'scratch' },
    { cueBall: 'off-table' },
    { offTable: [9] },
    { fouls: ['touched-ball'] },
    { fouls: ['double-hit'] },
    { fouls: ['feet-off-floor'] },
  ];
  it.each(foulShots)('%j is a foul: no points, balls respotted, count +1, opponent places', (foul) => {
    const m = given(mid([4, 6, 9, 12]), [{ shot: { firstContact: 4, pocketed: [12], ...foul } }]);
    expectState(m, { score: [20, 15], fouls: [1, 0], awaiting: 'foul-placement', turn: 'B', onTable: [4, 6, 9, 12] });
  });

  it('no cushion and no pocket after contact is a foul; "no rail" with a ball pocketed contradicts itself (D-30)', () => {
    expectState(given(mid([4, 6]), [{ shot: { firstContact: 4, rail: false } }]), { fouls: [1, 0], awaiting: 'foul-placement' });
    const e = refuse(given(mid([4, 6])), { shot: { firstContact: 4, rail: false, pocketed: [6] } });
    expect([e.code, e.field]).toEqual(['inconsistent-shot', 'step.shot.rail']);
  });

  it('the legal placements follow the R-8 table (as is impossible after a scratch, anywhere only after three fouls)', () => {
    const ordinary = legalPlacements({ thirdFoul: false, cueBallLost: false, lowestBallLost: false });
    expect(ordinary).toHaveLength(6);
    expect(legalPlacements({ thirdFoul: false, cueBallLost: true, lowestBallLost: false }).map((p) => p.cueBall)).toEqual(['kitchen', 'kitchen', 'kitchen']);
    expect(legalPlacements({ thirdFoul: false, cueBallLost: false, lowestBallLost: true }).every((p) => p.lowestBall !== 'as-is')).toBe(true);
    expect(legalPlacements({ thirdFoul: false, cueBallLost: false, lowestBallLost: false }, true)).toContainEqual({ cueBall: 'as-is', lowestBall: 'as-is' });
    expect(legalPlacements({ thirdFoul: false, cueBallLost: false, lowestBallLost: false }, true)).not.toContainEqual({
      cueBall: 'kitchen',
      lowestBall: 'as-is',
    });
    expect(legalPlacements({ thirdFoul: true, cueBallLost: true, lowestBallLost: false }).map((p) => p.cueBall)).toEqual(['anywhere', 'anywhere', 'anywhere']);
  });

  it('kitchen with the lowest ball behind the head string: "as is" refused for the lowest ball', () => {
    const m = given(mid([4, 6]), [{ shot: { firstContact: 6 } }]);
    expect(refuse(m, { choice: { cueBall: 'kitchen', lowestBall: 'as-is', lowestBallInKitchen: true } }).code).toBe('placement-forbidden');
    accept(m, { choice: { cueBall: 'kitchen', lowestBall: 'foot-spot', lowestBallInKitchen: true } });
  });

  it('a foul on the last ball respots it and the rack goes on (R-11)', () => {
    const m = given(mid([15]), [{ shot: { firstContact: 15, pocketed: [15], cueBall: 'scratch' } }]);
    expectState(m, { onTable: [15], rack: 1, awaiting: 'foul-placement', score: [20, 15] });
  });

  it('three fouls: ball in hand anywhere, no points lost, count reset; the count survives the opponent’s shots', () => {
    let m = given(mid([3, 8, 11], { fouls: [2, 0] }));
    m = accept(m, { shot: { firstContact: 8 } });
    expectState(m, {
      fouls: [0, 0],
      awaiting: 'foul-placement',
      score: [20, 15],
      foulPlacement: { thirdFoul: true, cueBallLost: false, lowestBallLost: false },
    });
    expect(view(m).last?.foul).toBe('third-foul');
    expect(refuse(m, { choice: { cueBall: 'kitchen', lowestBall: 'as-is' } }).code).toBe('placement-forbidden');
    m = accept(m, { choice: { cueBall: 'anywhere', lowestBall: 'center-spot' } });
    expectState(m, { ballInHand: 'anywhere', turn: 'B' });
  });

  it('without the three-foul rule, fouls keep counting and placement stays ordinary', () => {
    const m = given(mid([3, 8], { fouls: [2, 0] }, { threeFoulRule: false }), [{ shot: { firstContact: 8 } }]);
    expectState(m, { fouls: [3, 0] });
    expect(refuse(m, { choice: { cueBall: 'anywhere', lowestBall: 'as-is' } }).code).toBe('placement-forbidden');
  });
});

describe('push out (R-10; ROT §08)', () => {
  it('only scratch, double hit and touched ball are fouls on a push out; pocketed balls never score', () => {
    const after = (shot: Record<string, unknown>) => given(freshRot, [{ shot: { pocketed: [5] } }, { shot: { pushOut: true, ...shot } }]);
    expectState(after({ firstContact: 9, rail: false }), { awaiting: 'push-out-choice', score: [5, 0] });
    expectState(after({ firstContact: null, pocketed: [] }), { awaiting: 'push-out-choice', score: [5, 0] });
    expectState(after({ firstContact: 9, pocketed: [2] }), {
      awaiting: 'push-out-choice',
      score: [5, 0],
      onTable: [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    });
    // Any other foul is no foul on a push out: reporting one is refused rather than silently ignored.
    const e = refuse(given(freshRot, [{ shot: { pocketed: [5] } }]), { shot: { pushOut: true, fouls: ['feet-off-floor'] } });
    expect([e.code, e.field]).toEqual(['not-for-this-shot', 'step.shot.fouls.0']);
    expectState(after({ offTable: [3] }), { awaiting: 'push-out-choice', onTable: [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] });
    for (const foul of [{ cueBall: 'scratch' }, { fouls: ['double-hit'] }, { fouls: ['touched-ball'] }]) {
      expectState(after(foul), { awaiting: 'foul-placement', fouls: [1, 0], turn: 'B' });
    }
  });

  it('a legal push out clears the pusher’s count (D-21)', () => {
    // Foul counts kept across racks (option off), so B reaches the post-break shot on two fouls.
    let m = given(mid([15], { fouls: [0, 2] }, { foulCountResetsEachRack: false }), [{ shot: { firstContact: 15, pocketed: [15] } }]);
    expectState(m, { turn: 'B', breakShot: true, fouls: [0, 2] });
    m = accept(m, { shot: { firstContact: 1, pocketed: [2] } });
    m = accept(m, { shot: { pushOut: true } });
    expectState(m, { fouls: [0, 0], turn: 'A', awaiting: 'push-out-choice' });
  });

  it('push out refused when off, on the break, and after the post-break shot', () => {
    expect(refuse(given({ ...freshRot, options: { pushOut: false } }, [{ shot: { pocketed: [2] } }]), { shot: { pushOut: true } }).code).toBe(
      'push-out-not-allowed',
    );
    expect(refuse(given(freshRot), { shot: { pushOut: true } }).code).toBe('push-out-not-allowed');
  });
});

describe('racks, 61 and winning (R-3a, R-11, R-13; ROT §09, §13)', () => {
  it('last ball without the cue ball in the kitchen: the opponent breaks the next rack; foul counts reset (D-22)', () => {
    const m = given(mid([14, 15], { fouls: [1, 2] }), [{ shot: { firstContact: 14, pocketed: [14, 15] } }]);
    expectState(m, { score: [49, 15], rack: 2, turn: 'B', breakShot: true, ballInHand: 'kitchen', fouls: [0, 0], run: 0, rackPoints: [0, 0] });
    expect(view(m).last?.rerack?.reason).toBe('new-rack');
  });

  it('rack points and the 61 clinch are tracked in a race; the rack is still played out', () => {
    const m = given(mid([13, 14, 15], { score: [50, 10] }), [{ shot: { firstContact: 13, pocketed: [13] } }]);
    expectState(m, { rackPoints: [63, 10], rackClinchedBy: 'A', winner: null, pointsLeft: 29, lowestBall: 14 });
  });

  it('single rack 61: a 60–60 tie goes to the pocketer of the last ball, +1 (D-24)', () => {
    const m = given({ ...mid([15], { score: [45, 60] }), options: { format: 'single-rack-61' } }, [{ shot: { firstContact: 15, pocketed: [15] } }]);
    expectState(m, { score: [61, 60], winner: 'A' });
    expect(statsOf(m).check.ok).toBe(true);
  });

  it('call shot: an uncalled legal pot scores nothing and is respotted; the break is never called', () => {
    let m = given({ ...freshRot, options: { callShot: true } }, [{ shot: { pocketed: [3] } }]);
    expectState(m, { score: [3, 0], turn: 'A' });
    m = accept(m, { shot: { firstContact: 1, pocketed: [1] } });
    expectState(m, { score: [3, 0], turn: 'B', onTable: [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] });
    expect(refuse(m, { shot: { call: { made: true }, pocketed: [1] } }).field).toBe('step.shot.call.ball');
  });

  it('balls must be named in Rotation, and 14-1-only steps are refused', () => {
    const m = given(freshRot);
    expect(refuse(m, { shot: { pocketed: 2 } }).code).toBe('foreign-fact');
    expect(refuse(m, { stalemate: { breaker: 'A' } }).code).toBe('foreign-fact');
  });
});

describe('set-up', () => {
  it('the breaker named in the set-up opens the match', () => {
    const m = given({ ...freshRot, breaker: 'B' }, [{ shot: { pocketed: [3] } }]);
    expectState(m, { score: [0, 3], turn: 'B', innings: [0, 1] });
  });
});
