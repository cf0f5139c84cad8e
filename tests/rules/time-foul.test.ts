/**
 * D-32 time foul (`{"fouls": ["time"]}`): the shot clock ran out before the stroke. A standard foul with no
 * stroke in both disciplines (14-1: −1, counted toward three fouls, the cue ball where it was, D-32b: in hand behind
 * the head string when the offender held it there; Rotation: a foul with the R-8 placement, "as is" legal for both
 * balls), undone like any step, refused on any break (D-32a), using up the Rotation push out (D-32c), and refused
 * with any other fact of a report (D-30, `inconsistent-shot` naming that fact).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyStep, OTHER_FOULS, type Match, type Shot, view } from '../../shared/index';
import { playedTo, shotReports } from '../helpers/arbitraries';
import { accept, expectState, fresh141, freshRot, given, refuse } from '../helpers/given';
import { fcRuns } from '../helpers/fc-runs';

const TIME: Shot = { fouls: ['time'] };
const mid141 = (extra: Record<string, unknown> = {}, start: Record<string, unknown> = {}) => ({
  ...fresh141,
  ...extra,
  start: { score: [10, 12], innings: [3, 3], turn: 'B', ballsOnTable: 9, ...start },
});
const midRot = (extra: Record<string, unknown> = {}) => ({
  ...freshRot,
  ...extra,
  start: { score: [30, 25], innings: [5, 5], turn: 'B', onTable: [4, 5, 6, 8, 10, 11, 12, 14, 15] },
});

describe('14-1 (D-32; 14-1 §08, §09)', () => {
  it('a time foul is −1, counts as a foul, opens an inning and passes the table with the cue ball where it lies', () => {
    const m = accept(given(mid141()), { shot: TIME });
    expectState(m, { score: [10, 11], fouls: [0, 1], innings: [3, 4], turn: 'A', ballInHand: null, awaiting: null, ballsOnTable: 9, breakShot: false });
    expect(view(m).last).toMatchObject({ kind: 'shot', by: 'B', penalty: 1, foul: 'foul', turnEnd: 'foul', fouls: ['time'] });
  });

  // D-32b: every way the cue ball can be in hand behind the head string when the clock runs out, and the ways it lies.
  const inHand: [string, () => Match][] = [
    ['a scratch', () => given(mid141({}, { turn: 'A' }), [{ shot: { call: 'safety', cueBall: 'scratch' } }])],
    ['a cue ball off the table (D-33)', () => given(mid141({}, { turn: 'A' }), [{ shot: { call: { ball: 3 }, cueBall: 'off-table' } }])],
    [
      'a scratch on the opening break (S-9 accepted)',
      () => given(fresh141, [{ shot: { call: { ball: 3 }, cueBall: 'scratch', breakRails: { objectBalls: 0, cueBall: false } } }, { choice: 'accept' }]),
    ],
    ['a scratch on a legal opening break', () => given(fresh141, [{ shot: { call: { ball: 3 }, pocketed: [3], cueBall: 'scratch' } }])],
    [
      'the cue ball in the rack area at a re-rack (S-17)',
      () => given(mid141({}, { ballsOnTable: 2, turn: 'A' }), [{ shot: { call: { made: true }, rackArea: { cueBall: true } } }]),
    ],
    [
      'a third foul by the opponent, accepted after a scratch (NBA)',
      () =>
        given(mid141({}, { turn: 'A' }), [
          { shot: TIME },
          { shot: { call: 'safety' } },
          { shot: TIME },
          { shot: { call: 'safety' } },
          { shot: { call: 'safety', cueBall: 'scratch' } },
          { choice: 'accept' },
        ]),
    ],
  ];
  it.each(inHand)('after %s the offender held the cue ball in hand: the incoming player has it there (D-32b)', (_why, match) => {
    const m = match();
    const { turn, score, fouls } = view(m);
    expect(view(m)).toMatchObject({ ballInHand: 'kitchen', awaiting: null, breakShot: false });
    const t = turn === 'A' ? 0 : 1;
    const after = accept(m, { shot: TIME });
    expectState(after, { turn: turn === 'A' ? 'B' : 'A', ballInHand: 'kitchen', awaiting: null, ballsOnTable: view(m).ballsOnTable });
    expect(view(after).score[t]).toBe(score[t] - (fouls[t] === 2 ? 16 : 1));
  });

  it.each([
    ['a legal shot', () => given(mid141({}, { turn: 'A' }), [{ shot: { call: { ball: 3 }, pocketed: [3] } }, { shot: { call: 'safety' } }])],
    ['a stroke foul without a scratch', () => given(mid141({}, { turn: 'A' }), [{ shot: { call: 'safety', fouls: ['touched-ball'] } }])],
    ['a time foul by the opponent with the cue ball where it lies', () => given(mid141({}, { turn: 'A' }), [{ shot: TIME }])],
  ] as const)('after %s the cue ball lies on the table: the incoming player plays it where it lies', (_why, match) => {
    const m = match();
    expect(view(m).ballInHand).toBeNull();
    expectState(accept(m, { shot: TIME }), { ballInHand: null, awaiting: null });
  });

  it('a time foul by the next player keeps it in hand too: the cue ball stays behind the head string through each', () => {
    const m = given(mid141({}, { turn: 'A' }), [{ shot: { call: 'safety', cueBall: 'scratch' } }, { shot: TIME }, { shot: TIME }]);
    expectState(m, { turn: 'B', ballInHand: 'kitchen', fouls: [2, 1], score: [8, 11] });
  });

  it('a third time foul while holding the cue ball in hand: NBA accept leaves it in hand for the incoming player; WPA re-racks (D-31)', () => {
    // B's third foul comes while B holds the cue ball in hand (A scratched just before).
    const steps = [
      { shot: { call: 'safety', cueBall: 'scratch' } },
      { shot: TIME },
      { shot: { call: 'safety' } },
      { shot: TIME },
      { shot: { call: 'safety', cueBall: 'scratch' } },
      { shot: TIME },
    ];
    const nba = given(mid141({}, { turn: 'A' }), steps);
    expectState(nba, { awaiting: 'three-foul-choice', turn: 'A', fouls: [1, 0] });
    expectState(accept(nba, { choice: 'accept' }), { turn: 'A', ballInHand: 'kitchen', awaiting: null });
    const wpa = given(mid141({ ruleset: 'wpa' }, { turn: 'A' }), steps);
    expectState(wpa, { turn: 'B', breakShot: true, ballInHand: 'kitchen', rack: 2 });
  });

  it('the third consecutive time foul costs −16 in all; NBA: the opponent chooses, WPA: the mandatory re-rack', () => {
    const steps = [{ shot: TIME }, { shot: { call: { ball: 3 } } }, { shot: TIME }, { shot: { call: { ball: 3 } } }, { shot: TIME }];
    const nba = given(mid141(), steps);
    expectState(nba, { score: [10, -6], fouls: [0, 0], awaiting: 'three-foul-choice', turn: 'A' });
    expect(view(nba).last).toMatchObject({ foul: 'third-foul', penalty: 16, fouls: ['time'] });
    expectState(accept(nba, { choice: 'rerack' }), { turn: 'B', breakShot: true, ballsOnTable: 15, rack: 2 });
    const wpa = given(mid141({ ruleset: 'wpa' }), steps);
    expectState(wpa, { score: [10, -6], fouls: [0, 0], awaiting: null, turn: 'B', breakShot: true, ballsOnTable: 15, rack: 2 });
  });

  it('mixes with stroke fouls toward three fouls; a legal shot clears the count (S-6)', () => {
    const m = given(mid141(), [{ shot: TIME }, { shot: { call: 'safety' } }, { shot: { call: 'safety', cueBall: 'scratch' } }, { shot: { call: 'safety' } }]);
    expectState(m, { fouls: [0, 2], score: [10, 10], turn: 'B' });
    expectState(accept(m, { shot: TIME }), { fouls: [0, 0], score: [10, -6], awaiting: 'three-foul-choice' });
    expectState(given(mid141(), [{ shot: TIME }, { shot: { call: 'safety' } }, { shot: { call: 'safety' } }]), { fouls: [0, 0] });
  });

  it('with requireTwoFoulWarning a third time foul without the warning stays −1 (S-15)', () => {
    const m = given(mid141({ options: { requireTwoFoulWarning: true } }), [
      { shot: TIME },
      { shot: { call: 'safety' } },
      { shot: TIME },
      { shot: { call: 'safety' } },
      { shot: TIME },
    ]);
    expectState(m, { score: [10, 9], fouls: [0, 2], awaiting: null });
  });
});

describe('Rotation (D-32; R-8, R-9)', () => {
  // D-32b: whatever the offender held, the incoming player has the R-8 placement choices.
  it.each([
    ['the cue ball where it lies', [{ shot: { firstContact: 4 } }], 'as-is'],
    [
      'the cue ball in hand behind the head string',
      [{ shot: { firstContact: 4, cueBall: 'scratch' } }, { choice: { cueBall: 'kitchen', lowestBall: 'as-is' } }],
      'kitchen',
    ],
    [
      'the cue ball in hand anywhere (third foul)',
      [
        { shot: TIME },
        { choice: { cueBall: 'as-is', lowestBall: 'as-is' } },
        { shot: { firstContact: 4 } },
        { shot: TIME },
        { choice: { cueBall: 'as-is', lowestBall: 'as-is' } },
        { shot: { firstContact: 4 } },
        { shot: TIME },
        { choice: { cueBall: 'anywhere', lowestBall: 'as-is' } },
      ],
      'anywhere',
    ],
  ] as const)('with %s, a time foul gives the incoming player the R-8 placement choices (D-32b)', (_why, steps, held) => {
    const m = given(midRot(), [...steps]);
    expect(view(m)).toMatchObject({ awaiting: null, ballInHand: held === 'as-is' ? null : held });
    const after = accept(m, { shot: TIME });
    expectState(after, { awaiting: 'foul-placement', onTable: view(m).onTable, score: view(m).score });
    for (const cueBall of ['as-is', 'kitchen'] as const) {
      for (const lowestBall of ['as-is', 'center-spot', 'foot-spot'] as const) accept(after, { choice: { cueBall, lowestBall } });
    }
    // The lowest ball behind the head string: in hand behind it, it may not stay (R-8, lowestBallInKitchen).
    expect(refuse(after, { choice: { cueBall: 'kitchen', lowestBall: 'as-is', lowestBallInKitchen: true } }).code).toBe('placement-forbidden');
  });

  it('a time foul scores nothing, counts as a foul and asks for the placement; as is is legal for both balls', () => {
    const m = accept(given(midRot()), { shot: TIME });
    expectState(m, { score: [30, 25], fouls: [0, 1], awaiting: 'foul-placement', turn: 'A', onTable: [4, 5, 6, 8, 10, 11, 12, 14, 15] });
    expect(view(m).last).toMatchObject({ foul: 'foul', fouls: ['time'], penalty: 0 });
    expectState(accept(m, { choice: { cueBall: 'as-is', lowestBall: 'as-is' } }), { awaiting: null, ballInHand: null, turn: 'A' });
    expectState(accept(m, { choice: { cueBall: 'kitchen', lowestBall: 'foot-spot' } }), { awaiting: null, ballInHand: 'kitchen' });
  });

  it('the third consecutive time foul gives ball in hand anywhere (R-9); without the three-foul rule it does not', () => {
    const steps = [
      { shot: TIME },
      { choice: { cueBall: 'as-is', lowestBall: 'as-is' } },
      { shot: { firstContact: 4 } },
      { shot: TIME },
      { choice: { cueBall: 'as-is', lowestBall: 'as-is' } },
      { shot: { firstContact: 4 } },
      { shot: TIME },
    ];
    const m = given(midRot(), steps);
    expectState(m, { fouls: [0, 0], awaiting: 'foul-placement', score: [30, 25] });
    expect(view(m).last).toMatchObject({ foul: 'third-foul' });
    accept(m, { choice: { cueBall: 'anywhere', lowestBall: 'as-is' } });
    expectState(given(midRot({ options: { threeFoulRule: false } }), steps), { fouls: [0, 3] });
  });

  it('on the shot after the break a time foul uses up the push out (R-10: only that shot may be one)', () => {
    const m = accept(given(freshRot, [{ shot: { pocketed: [5] } }]), { shot: TIME });
    expectState(m, { awaiting: 'foul-placement', turn: 'B' });
    const placed = accept(m, { choice: { cueBall: 'as-is', lowestBall: 'as-is' } });
    expect(refuse(placed, { shot: { pushOut: true } }).code).toBe('push-out-not-allowed');
  });
});

describe('undo', () => {
  it.each([
    ['14-1', mid141()],
    ['rotation', midRot()],
  ] as const)('%s: undo of a time foul restores the state and statistics before it', (_d, setup) => {
    const m = given(setup);
    const after = accept(m, { shot: TIME });
    const back = accept(after, { undo: true });
    expect(view(back)).toEqual(view(m));
    expect(back.stats).toBe(m.stats);
  });

  it('14-1: undo of a third time foul takes back the −16 and the pending choice', () => {
    const m = given(mid141(), [{ shot: TIME }, { shot: { call: 'safety' } }, { shot: TIME }, { shot: { call: 'safety' } }]);
    expectState(accept(accept(m, { shot: TIME }), { undo: true }), { score: [10, 10], fouls: [0, 2], awaiting: null, turn: 'B' });
  });
});

/** A present value of every field a report may carry besides `fouls`, and each other foul. */
const OTHER_FACTS: [string, Shot][] = [
  ['call', { call: 'safety' }],
  ['call', { call: { ball: 4 } }],
  ['call', { call: { made: false } }],
  ['pocketed', { pocketed: [4] }],
  ['pocketed', { pocketed: 0 }],
  ['offTable', { offTable: [4] }],
  ['firstContact', { firstContact: 4 }],
  ['firstContact', { firstContact: null }],
  ['rail', { rail: true }],
  ['rail', { rail: false }],
  ['breakRails', { breakRails: { objectBalls: 4 } }],
  ['cueBall', { cueBall: 'scratch' }],
  ['cueBall', { cueBall: 'off-table' }],
  ['pushOut', { pushOut: false }],
  ['pushOut', { pushOut: true }],
  ['cueBallInKitchen', { cueBallInKitchen: false }],
  ['rackArea', { rackArea: {} }],
  ...OTHER_FOULS.map((f): [string, Shot] => ['fouls.1', { fouls: ['time', f] }]),
  ...OTHER_FOULS.map((f): [string, Shot] => ['fouls.0', { fouls: [f, 'time'] }]),
];

describe('refusals (D-30, D-32)', () => {
  const matches: [string, () => Match][] = [
    ['14-1', () => given(mid141())],
    ['rotation', () => given(midRot())],
    ['rotation (call shot)', () => given(midRot({ options: { callShot: true } }))],
  ];
  it.each(matches)('%s: a time foul with any other fact is refused, naming that fact; the match is untouched', (d, match) => {
    const m = match();
    let contradictions = 0;
    for (const [field, extra] of OTHER_FACTS) {
      const e = refuse(m, { shot: { fouls: ['time'], ...extra } });
      // The fact itself, or a part of it (`call.ball` of a Rotation call without its number).
      expect(e.field === `step.shot.${field}` || e.field!.startsWith(`step.shot.${field}.`), `${JSON.stringify(extra)}: ${e.field}`).toBe(true);
      // A fact of this shot is a contradiction; a fact the discipline does not have, or one of another kind of shot,
      // is refused as such first (the D-30 order: the table before the contradictions).
      expect(['inconsistent-shot', 'foreign-fact', 'not-for-this-shot', 'push-out-not-allowed'], JSON.stringify(extra)).toContain(e.code);
      if (e.code === 'inconsistent-shot') {
        contradictions++;
        expect(e.message).toMatch(/time foul.*D-32/);
      }
    }
    expect(contradictions).toBeGreaterThan(d === '14-1' ? 20 : 18);
  });

  it('a time foul listed twice is refused as a repeated foul', () => {
    expect(refuse(given(mid141()), { shot: { fouls: ['time', 'time'] } }).field).toBe('step.shot.fouls.1');
  });

  it.each([
    ['14-1 opening break', () => given(fresh141)],
    [
      '14-1 break after a three-foul re-rack',
      () => given(mid141({ ruleset: 'wpa' }), [{ shot: TIME }, { shot: { call: 'safety' } }, { shot: TIME }, { shot: { call: 'safety' } }, { shot: TIME }]),
    ],
    ['Rotation opening break', () => given(freshRot)],
    ['Rotation break of a new rack', () => given({ ...freshRot, start: { onTable: [15] } }, [{ shot: { pocketed: [15], cueBallInKitchen: true } }])],
  ] as const)('%s: no time foul (the shot clock does not run for a break)', (_what, match) => {
    const m = match();
    expect(view(m).breakShot).toBe(true);
    const e = refuse(m, { shot: TIME });
    expect([e.code, e.field]).toEqual(['not-for-this-shot', 'step.shot.fouls.0']);
    expect(e.message).toMatch(/D-32/);
  });

  it('while a choice is pending or after the match is won, a time foul is refused like any shot', () => {
    expect(refuse(given(midRot(), [{ shot: TIME }]), { shot: TIME }).code).toBe('choice-pending');
    expect(
      refuse(given({ ...fresh141, targets: [11, 100], start: { score: [10, 0], ballsOnTable: 9 } }, [{ shot: { call: { made: true } } }]), { shot: TIME }).code,
    ).toBe('match-over');
  });
});

describe('property: a time foul decides as a stroke foul where nothing moved (D-32)', () => {
  /** The stroke foul with the same effect: 14-1 a called safety with a touched ball; Rotation a touched ball on a legal hit. */
  const strokeFoul = (m: Match): Shot => (m.setup.discipline === '14-1' ? { call: 'safety', fouls: ['touched-ball'] } : { fouls: ['touched-ball'] });
  const setups = fc.constantFrom<Record<string, unknown>>(
    { discipline: '14-1', ruleset: 'nba', players: ['A', 'B'], targets: [40, 40] },
    { discipline: '14-1', ruleset: 'wpa', players: ['A', 'B'], targets: [40, 40] },
    { discipline: '14-1', ruleset: 'nba', players: ['A', 'B'], targets: [40, 40], options: { requireTwoFoulWarning: true } },
    { discipline: 'rotation', players: ['A', 'B'] },
    { discipline: 'rotation', players: ['A', 'B'], options: { callShot: true, threeFoulRule: false } },
  );

  it('same state and outcome (but the foul named), in random states of random matches; with any other fact, refused', () => {
    let compared = 0;
    let heldCompared = 0;
    fc.assert(
      fc.property(setups, fc.integer(), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 3 }), (input, seed, length, repeat) => {
        let m = playedTo(input, seed, length);
        for (let i = 0; i <= repeat; i++) {
          if (m.core.winner || m.core.awaiting || m.core.breakShot) return;
          const time = applyStep(m, { shot: TIME });
          const stroke = applyStep(m, { shot: strokeFoul(m) });
          if (!stroke.ok) throw new Error(`the stroke foul was refused: ${stroke.error.message}`);
          if (!time.ok) throw new Error(`the time foul was refused: ${time.error.message}`);
          // D-32b: the stroke foul leaves the cue ball where it lies; the time foul leaves it where it was (14-1: in
          // hand behind the head string when the offender held it there). Everything else is the same.
          const held = m.setup.discipline === '14-1' ? m.core.ballInHand : null;
          const inHandAfter =
            stroke.match.core.awaiting === 'three-foul-choice' ? { pendingBallInHand: held } : stroke.match.core.breakShot ? {} : { ballInHand: held };
          expect(time.match.core).toEqual({ ...stroke.match.core, ...inHandAfter });
          if (held) heldCompared++;
          const next = stroke.outcome.next && 'ballInHand' in inHandAfter ? { ...stroke.outcome.next, ballInHand: held } : stroke.outcome.next;
          expect({ ...time.outcome, fouls: undefined }).toEqual({ ...stroke.outcome, next, fouls: undefined });
          expect(time.outcome.fouls).toEqual(['time']);
          compared++;
          // Undo returns the match as it was.
          const back = applyStep(time.match, { undo: true });
          expect(back.ok && back.match.core).toBe(m.core);
          // The next player plays on: a placement after a Rotation foul, the NBA choice after a third foul.
          m = time.match;
          if (m.core.awaiting === 'foul-placement') {
            const cueBall = m.core.placement?.thirdFoul ? 'anywhere' : 'as-is';
            m = (applyStep(m, { choice: { cueBall, lowestBall: 'as-is' } }) as { match: Match }).match;
          }
          if (m.core.awaiting === 'three-foul-choice') m = (applyStep(m, { choice: 'accept' }) as { match: Match }).match;
          if (!m.core.awaiting && !m.core.winner && !m.core.breakShot) {
            const r = applyStep(m, { shot: strokeFoul(m).call ? { call: 'safety' } : {} });
            if (r.ok) m = r.match;
          }
        }
      }),
      { numRuns: fcRuns(300) },
    );
    expect(compared).toBeGreaterThan(300);
    expect(heldCompared).toBeGreaterThan(0);
  });

  it('any other fact beside a time foul is refused and changes nothing', () => {
    const reports = fc
      .constantFrom('14-1' as const, 'rotation' as const)
      .chain((d) => fc.tuple(fc.constant(d), shotReports(d, d === 'rotation'), fc.integer(), fc.integer({ min: 0, max: 40 })));
    fc.assert(
      fc.property(reports, ([d, report, seed, length]) => {
        const { fouls: _f, ...rest } = report;
        if (Object.keys(rest).length === 0) return;
        const m = playedTo(
          d === '14-1' ? { discipline: '14-1', players: ['A', 'B'] } : { discipline: 'rotation', players: ['A', 'B'], options: { callShot: true } },
          seed,
          length,
        );
        const before = JSON.stringify(view(m));
        const r = applyStep(m, { shot: { ...rest, fouls: ['time'] } });
        expect(r.ok).toBe(false);
        expect(JSON.stringify(view(m))).toBe(before);
      }),
      { numRuns: fcRuns(300) },
    );
  });
});
