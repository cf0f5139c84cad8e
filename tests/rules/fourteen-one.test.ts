/** 14-1 rule families, given-when-then (docs/rules.md §3; seed 14-1 §04–§11). */
import { describe, expect, it } from 'vitest';
import { projectSteps, statsOf, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { accept, expectState, fresh141, given, refuse } from '../helpers/given';

const midRack = (over: Record<string, unknown> = {}) => ({
  ...fresh141,
  start: { score: [20, 15], fouls: [0, 0], innings: [5, 5], highRun: [9, 9], turn: 'A', rack: 2, ballsOnTable: 9, ...over },
});

describe('opening break (S-7–S-11; 14-1 §05)', () => {
  it('every way of failing the requirement is a breaking foul of −2, scratch included (not −3)', () => {
    for (const shot of [
      { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } },
      { call: 'safety', breakRails: { objectBalls: 3, cueBall: false } },
      { call: 'safety', firstContact: null, breakRails: { objectBalls: 0, cueBall: true } },
      { call: { ball: 5 }, breakRails: { objectBalls: 1, cueBall: true }, cueBall: 'scratch' },
      { call: { ball: 5 }, pocketed: [9], breakRails: { objectBalls: 0, cueBall: true } },
    ]) {
      const m = given(fresh141, [{ shot }]);
      expectState(m, { score: [-2, 0], awaiting: 'break-foul-choice', turn: 'B', fouls: [0, 0], ballsOnTable: 15 });
      expect(view(m).last).toMatchObject({ foul: 'breaking-foul', turnEnd: 'breaking-foul', penalty: 2, next: { turn: 'B', awaiting: 'break-foul-choice' } });
    }
  });

  it('a scratch counts as the cue ball reaching a cushion (NBA, D-3 for WPA)', () => {
    for (const ruleset of ['nba', 'wpa'] as const) {
      const m = given({ ...fresh141, ruleset }, [{ shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: false }, cueBall: 'scratch' } }]);
      expectState(m, { score: [-1, 0], awaiting: null, ballInHand: 'kitchen', fouls: ruleset === 'nba' ? [0, 0] : [1, 0] });
    }
  });

  it('a called ball made on the break meets the requirement whatever reached a cushion, and every ball scores', () => {
    const m = given(fresh141, [{ shot: { call: { ball: 1 }, pocketed: [1, 2, 3], breakRails: { objectBalls: 0, cueBall: false } } }]);
    expectState(m, { score: [3, 0], run: 3, turn: 'A', ballsOnTable: 12, breakShot: false, highRun: [3, 0] });
  });

  it('called ball made with a scratch on the break: −1, balls spotted (S-10)', () => {
    const m = given(fresh141, [{ shot: { call: { ball: 1 }, pocketed: [1], cueBall: 'scratch' } }]);
    expectState(m, { score: [-1, 0], ballsOnTable: 15, turn: 'B', ballInHand: 'kitchen', fouls: [0, 0] });
  });

  it('breaking foul accepted after a scratch: the incoming player has ball in hand behind the head string', () => {
    const m = given(fresh141, [{ shot: { call: 'safety', breakRails: { objectBalls: 0 }, cueBall: 'scratch' } }, { choice: 'accept' }]);
    expectState(m, { score: [-2, 0], turn: 'B', ballInHand: 'kitchen', breakShot: false, awaiting: null });
  });

  it('breaking fouls stack without limit, never touch the foul count, and each re-break is a new inning', () => {
    let m = given(fresh141);
    for (let i = 1; i <= 4; i++) {
      m = accept(m, { shot: { call: 'safety', breakRails: { objectBalls: 0 } } });
      m = accept(m, { choice: 'rebreak' });
      expectState(m, { score: [-2 * i, 0], fouls: [0, 0], innings: [i, 0], rack: 1, breakShot: true, turn: 'A' });
    }
    expect(statsOf(m).players[0].breakingFouls).toBe(4);
  });

  it('wrong choice words are refused with the legal ones named', () => {
    const m = given(fresh141, [{ shot: { call: 'safety', breakRails: { objectBalls: 0 } } }]);
    const e = refuse(m, { choice: 'rerack' });
    expect(e.code).toBe('wrong-choice');
    expect(e.message).toContain('"rebreak"');
    expect(refuse(m, { choice: { cueBall: 'kitchen', lowestBall: 'as-is' } }).code).toBe('foreign-fact');
  });
});

describe('scoring and spotting (S-4, S-5; 14-1 §04, §12)', () => {
  it('a scorer in a hurry records counts: {made: true} with a count, or {made: true} alone for one ball', () => {
    let m = given(midRack(), [{ shot: { call: { made: true }, pocketed: 3 } }]);
    expectState(m, { score: [23, 15], run: 3, ballsOnTable: 6, onTable: null });
    m = accept(m, { shot: { call: { made: true } } });
    expectState(m, { score: [24, 15], run: 4, ballsOnTable: 5 });
    m = accept(m, { shot: { call: { made: false }, pocketed: 1 } });
    expectState(m, { score: [24, 15], turn: 'B', ballsOnTable: 5 });
  });

  it('every 14-1 shot is called (S-3): a report with nothing called is refused, a called miss spots the balls', () => {
    const e = refuse(given(midRack()), { shot: { pocketed: [3] } });
    expect([e.code, e.field]).toEqual(['foreign-fact', 'step.shot.call']);
    expectState(given(midRack(), [{ shot: { call: { made: false }, pocketed: [3] } }]), { score: [20, 15], turn: 'B', ballsOnTable: 9 });
  });

  it('refuses reports that cannot be true: made without the ball, more balls than the table, a ball twice', () => {
    const m = given(midRack());
    expect(refuse(m, { shot: { call: { ball: 3, made: true }, pocketed: [4] } }).field).toBe('step.shot.call.made');
    expect(refuse(m, { shot: { call: { made: true }, pocketed: 0 } }).code).toBe('inconsistent-shot');
    expect(refuse(m, { shot: { call: { made: true }, pocketed: 10 } }).code).toBe('inconsistent-shot');
    expect(refuse(m, { shot: { call: { ball: 3 }, pocketed: [3, 3] } }).field).toBe('step.shot.pocketed.1');
    expect(refuse(m, { shot: { call: { ball: 3 }, pushOut: true } }).code).toBe('foreign-fact');
  });

  it('with the balls known, a ball already pocketed in this rack is refused', () => {
    const m = given(fresh141, [{ shot: { call: { ball: 3 }, pocketed: [3] } }]);
    const e = refuse(m, { shot: { call: { ball: 3 }, pocketed: [3] } });
    expect(e.code).toBe('ball-not-on-table');
    expect(e.field).toBe('step.shot.call.ball');
  });
});

describe('fouls and three fouls (S-12–S-14; 14-1 §08, §09)', () => {
  const fouls = [
    { cueBall: 'scratch' },
    { cueBall: 'off-table' },
    { firstContact: null },
    { rail: false },
    { offTable: [4] },
    { fouls: ['touched-ball'] },
    { fouls: ['double-hit'] },
    { fouls: ['feet-off-floor'] },
  ];
  it('every standard foul costs 1 and counts; the third costs 16 (−18 in all, D-4)', () => {
    for (const foul of fouls) {
      let m = given(midRack());
      m = accept(m, { shot: { call: { ball: 3 }, ...foul } });
      m = accept(m, { shot: { call: 'safety' } });
      expectState(m, { score: [19, 15], fouls: [1, 0] });
      m = accept(m, { shot: { call: { ball: 3 }, ...foul } });
      m = accept(m, { shot: { call: 'safety' } });
      expectState(m, { score: [18, 15], fouls: [2, 0], onTwoFouls: [true, false] });
      m = accept(m, { shot: { call: { ball: 3 }, ...foul } });
      expectState(m, { score: [2, 15], fouls: [0, 0], awaiting: 'three-foul-choice', turn: 'B' });
      expect(view(m).last).toMatchObject({
        foul: 'third-foul',
        turnEnd: 'third-foul',
        penalty: 16,
        standingFouls: 0,
        next: { turn: 'B', awaiting: 'three-foul-choice' },
      });
    }
  });

  it('balls pocketed on the foul shot never clear the count (App. B #15)', () => {
    let m = given(midRack({ fouls: [2, 0] }));
    m = accept(m, { shot: { call: { ball: 3 }, pocketed: [3, 4], cueBall: 'scratch' } });
    expectState(m, { score: [4, 15], ballsOnTable: 9, awaiting: 'three-foul-choice' });
  });

  it('a legal pot earlier in the inning clears the count; a later foul in that inning is foul one', () => {
    let m = given(midRack({ fouls: [2, 0] }));
    m = accept(m, { shot: { call: { ball: 3 }, pocketed: [3] } });
    m = accept(m, { shot: { call: { ball: 4 }, cueBall: 'scratch' } });
    expectState(m, { score: [20, 15], fouls: [1, 0], turn: 'B' });
  });

  it("the opponent's fouls and shots never touch a player's count", () => {
    let m = given(midRack({ fouls: [2, 2] }));
    m = accept(m, { shot: { call: 'safety' } }); // A legal: A → 0
    expectState(m, { fouls: [0, 2] });
    m = accept(m, { shot: { call: 'safety', rail: false } }); // B third foul
    expectState(m, { fouls: [0, 0], awaiting: 'three-foul-choice', turn: 'A', score: [20, -1] });
  });

  it('NBA accept after a third-foul scratch: ball in hand behind the head string, rack unchanged', () => {
    let m = given(midRack({ fouls: [2, 0] }), [{ shot: { call: { ball: 3 }, cueBall: 'scratch' } }, { choice: 'accept' }]);
    expectState(m, { turn: 'B', ballInHand: 'kitchen', rack: 2, ballsOnTable: 9, awaiting: null });
    m = accept(m, { shot: { call: 'safety' } });
    expectState(m, { innings: [6, 6], turn: 'A' });
  });

  it('WPA: the re-rack is mandatory and a choice is refused', () => {
    const m = given(midRack({ fouls: [2, 0] }), [{ shot: { call: { ball: 3 }, cueBall: 'scratch' } }]);
    expectState(m, { awaiting: 'three-foul-choice' });
    const w = given({ ...midRack({ fouls: [2, 0] }), ruleset: 'wpa' }, [{ shot: { call: { ball: 3 }, cueBall: 'scratch' } }]);
    expectState(w, { awaiting: null, rack: 3, ballsOnTable: 15, turn: 'A', breakShot: true, ballInHand: 'kitchen', score: [4, 15] });
    expect(refuse(w, { choice: 'accept' }).code).toBe('no-choice-pending');
  });

  it('requireTwoFoulWarning: without the warning a third foul counts as a second (S-15)', () => {
    const setup = { ...midRack({ fouls: [2, 0] }), options: { requireTwoFoulWarning: true } };
    let m = given(setup, [{ shot: { call: { ball: 3 }, cueBall: 'scratch' } }]);
    expectState(m, { score: [19, 15], fouls: [2, 0], awaiting: null });
    m = given(setup, [{ warning: 'A' }, { shot: { call: { ball: 3 }, cueBall: 'scratch' } }]);
    expectState(m, { score: [4, 15], awaiting: 'three-foul-choice' });
    expect(refuse(given(fresh141), { warning: 'A' }).code).toBe('invalid-step');
  });
});

describe('re-racks (S-16–S-18; 14-1 §07)', () => {
  const at2 = midRack({ ballsOnTable: 2 });
  const table = [
    [{}, { cueBall: 'as-is', breakBall: 'as-is', racked: 14 }, null],
    [{ breakBall: true }, { cueBall: 'as-is', breakBall: 'head-spot', racked: 14 }, null],
    [{ breakBall: true, headSpotTaken: true }, { cueBall: 'as-is', breakBall: 'center-spot', racked: 14 }, null],
    [{ cueBall: true }, { cueBall: 'kitchen', breakBall: 'as-is', racked: 14 }, 'kitchen'],
    [{ cueBall: true, breakBallInKitchen: true }, { cueBall: 'head-spot', breakBall: 'as-is', racked: 14 }, null],
    [{ cueBall: true, breakBallInKitchen: true, headSpotTaken: true }, { cueBall: 'center-spot', breakBall: 'as-is', racked: 14 }, null],
    [{ cueBall: true, breakBall: true }, { cueBall: 'kitchen', breakBall: 'racked', racked: 15 }, 'kitchen'],
  ] as const;
  it.each(table)('rack area %j → %j', (rackArea, placement, hand) => {
    const m = given(at2, [{ shot: { call: { ball: 5 }, pocketed: [5], rackArea } }]);
    expectState(m, {
      rack: 3,
      ballsOnTable: 15,
      turn: 'A',
      run: 1,
      breakShot: false,
      ballInHand: hand,
      rackPlacement: placement,
      onTable: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    });
  });

  it('14th and break ball together: all score, 15 racked, cue ball to the kitchen only if in the rack area', () => {
    expectState(given(at2, [{ shot: { call: { ball: 5 }, pocketed: 2 } }]), {
      score: [22, 15],
      rackPlacement: { cueBall: 'as-is', breakBall: 'racked', racked: 15 },
      ballInHand: null,
    });
    expectState(given(at2, [{ shot: { call: { ball: 5 }, pocketed: 2, rackArea: { cueBall: true } } }]), {
      rackPlacement: { cueBall: 'kitchen', breakBall: 'racked', racked: 15 },
      ballInHand: 'kitchen',
    });
  });

  it('a foul on the shot that would leave the break ball spots the balls: no re-rack', () => {
    const m = given(at2, [{ shot: { call: { ball: 5 }, pocketed: [5], fouls: ['double-hit'] } }]);
    expectState(m, { rack: 2, ballsOnTable: 2, turn: 'B', score: [19, 15] });
  });
});

describe('winning, stalemate and undo', () => {
  it('the winning shot counts every ball (no clamp, D-9); nothing is accepted afterwards but undo', () => {
    let m = given({ ...fresh141, targets: [25, 25], start: { score: [24, 3], ballsOnTable: 9 } }, [{ shot: { call: { made: true }, pocketed: 3 } }]);
    expectState(m, { score: [27, 3], winner: 'A', needed: [0, 22] });
    expect(refuse(m, { shot: { call: 'safety' } }).code).toBe('match-over');
    expect(refuse(m, { choice: 'accept' }).code).toBe('match-over');
    m = accept(m, { undo: true });
    expectState(m, { score: [24, 3], winner: null, ballsOnTable: 9 });
    expect(refuse(m, { undo: true }).code).toBe('nothing-to-undo');
  });

  it('stalemate (S-20): scores, fouls and innings kept, rack + 1, the lag winner opens', () => {
    const m = given(midRack({ fouls: [1, 2] }), [{ stalemate: { breaker: 'B' } }]);
    expectState(m, { score: [20, 15], fouls: [1, 2], innings: [5, 5], rack: 3, ballsOnTable: 15, breakShot: true, turn: 'B', ballInHand: 'kitchen' });
  });
});

describe('projection of queued steps (scorer offline)', () => {
  it('plays steps forward from a snapshot, undoes projected steps, and stops at an undo past the snapshot', () => {
    const setup = parseSetup({ ...fresh141, players: ['A', 'B'] });
    const snap = view(given(fresh141, [{ shot: { call: 'safety', breakRails: { objectBalls: 2 } } }]));
    const p = projectSteps(setup, snap, [
      { shot: { call: { made: true }, pocketed: 2 } },
      { shot: { call: { made: false }, cueBall: 'scratch' } },
      { undo: true },
    ]);
    expect(p.error).toBeUndefined();
    expect([p.state.score, p.state.run, p.state.turn, p.state.steps]).toEqual([[0, 2], 2, 'B', 2]);
    const past = projectSteps(setup, snap, [{ undo: true }]);
    expect(past.applied).toBe(0);
    expect(past.error?.code).toBe('nothing-to-undo');
    expect(past.state).toEqual(snap);
    const pending = projectSteps(setup, view(given(fresh141)), [{ shot: { call: 'safety', breakRails: { objectBalls: 0 } } }]);
    expect([pending.state.awaiting, pending.state.turn]).toEqual(['break-foul-choice', 'B']);
  });
});

describe('rack totals (dashboard "balls per rack")', () => {
  it('a run across re-racks is credited to the rack each shot was played in', () => {
    // A pockets 1 then the 14th ball (re-rack), then 14 more (re-rack), then 2; B then pockets 3.
    const m = given({ ...fresh141, start: { score: [0, 0], turn: 'A', rack: 2, ballsOnTable: 3 } }, [
      { shot: { call: { made: true }, pocketed: 1 } },
      { shot: { call: { made: true }, pocketed: 1 } },
      { shot: { call: { made: true }, pocketed: 14 } },
      { shot: { call: { made: true }, pocketed: 2 } },
      { shot: { call: { made: false } } },
      { shot: { call: { made: true }, pocketed: 3 } },
    ]);
    expectState(m, { rack: 4, score: [18, 3], ballsOnTable: 10 });
    expect(statsOf(m).racks).toEqual([
      { rack: 2, points: [2, 0], balls: [[], []] },
      { rack: 3, points: [14, 0], balls: [[], []] },
      { rack: 4, points: [2, 3], balls: [[], []] },
    ]);
  });
});
