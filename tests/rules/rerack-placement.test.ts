/**
 * D-31: after every 15-ball re-rack for an opening break the public `rackPlacement` is
 * {cueBall: "kitchen", breakBall: "racked", racked: 15}, kept until the next re-rack. Every re-rack path ×
 * both rulesets, given-when-then, then a property over random matches (stalemates included).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyStep, type Match, type MatchState, newMatch, type RackPlacement, type Step, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import { accept, expectState, fresh141, freshRot, given } from '../helpers/given';
import { fcRuns } from '../helpers/fc-runs';

const FOR_BREAK: RackPlacement = { cueBall: 'kitchen', breakBall: 'racked', racked: 15 };
const RULESETS = ['nba', 'wpa'] as const;

/**
 * A 14-1 match mid-rack whose last re-rack left a 14-ball placement (so a change is visible): A scored the re-rack
 * and then missed; B, who came in on `bFouls` consecutive fouls, is at the table.
 */
function afterContinuousRerack(ruleset: 'nba' | 'wpa', bFouls = 0): Match {
  const m = given({ ...fresh141, ruleset, start: { score: [30, 25], fouls: [0, bFouls], turn: 'A', rack: 3, ballsOnTable: 2 } }, [
    { shot: { call: { made: true }, rackArea: { breakBall: true } } },
    { shot: { call: { made: false } } },
  ]);
  expectState(m, { rack: 4, turn: 'B', fouls: [0, bFouls], rackPlacement: { cueBall: 'as-is', breakBall: 'head-spot', racked: 14 } });
  return m;
}

/** Each path that racks all 15 for a new opening break, from a match that had a 14-ball re-rack before. */
const PATHS: { path: string; rulesets: readonly ('nba' | 'wpa')[]; play: (ruleset: 'nba' | 'wpa') => Match; breaker: 'A' | 'B'; rack: number }[] = [
  {
    path: 'NBA three-foul "rerack" choice (S-14, D-5)',
    rulesets: ['nba'],
    play: (r) => accept(accept(afterContinuousRerack(r, 2), { shot: { call: { made: false }, cueBall: 'scratch' } }), { choice: 'rerack' }),
    breaker: 'B',
    rack: 5,
  },
  {
    path: 'WPA mandatory three-foul re-rack (WPA 4.11)',
    rulesets: ['wpa'],
    play: (r) => accept(afterContinuousRerack(r, 2), { shot: { call: { made: false }, rail: false } }),
    breaker: 'B',
    rack: 5,
  },
  {
    path: 're-break after a breaking foul (S-9)',
    rulesets: RULESETS,
    play: (r) => accept(accept(given({ ...fresh141, ruleset: r }), { shot: { call: 'safety', breakRails: { objectBalls: 1 } } }), { choice: 'rebreak' }),
    breaker: 'A',
    rack: 1,
  },
  {
    path: 're-break after a breaking foul on the break that followed a three-foul re-rack',
    rulesets: RULESETS,
    play: (r) => {
      let m = accept(afterContinuousRerack(r, 2), { shot: { call: { made: false }, cueBall: 'scratch' } });
      if (r === 'nba') m = accept(m, { choice: 'rerack' });
      m = accept(m, { shot: { call: 'safety', breakRails: { objectBalls: 3, cueBall: false } } });
      return accept(m, { choice: 'rebreak' });
    },
    breaker: 'B',
    rack: 5,
  },
  {
    path: 'stalemate (S-20), the lag winner breaks',
    rulesets: RULESETS,
    play: (r) => accept(afterContinuousRerack(r), { stalemate: { breaker: 'B' } }),
    breaker: 'B',
    rack: 5,
  },
];

describe.each(PATHS.flatMap((p) => p.rulesets.map((r) => [p.path, r, p] as const)))('%s — %s', (_path, ruleset, p) => {
  it('given the re-rack, then the breaker has the cue ball in hand behind the head string and 15 are racked', () => {
    const m = p.play(ruleset);
    expectState(m, { rackPlacement: FOR_BREAK, breakShot: true, ballInHand: 'kitchen', ballsOnTable: 15, turn: p.breaker, rack: p.rack, awaiting: null });
  });

  it('the placement stays through the break and the shots after it, until the next re-rack', () => {
    let m = p.play(ruleset);
    m = accept(m, { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } });
    expectState(m, { rackPlacement: FOR_BREAK, breakShot: false });
    m = accept(m, { shot: { call: { made: true }, pocketed: 3 } });
    m = accept(m, { shot: { call: { made: false }, cueBall: 'scratch' } });
    expectState(m, { rackPlacement: FOR_BREAK, ballsOnTable: 12 });
    // The next re-rack replaces it: a scoring shot leaving the break ball with the cue ball in the rack area.
    m = accept(m, { shot: { call: { made: true }, pocketed: 11, rackArea: { cueBall: true } } });
    expectState(m, { rackPlacement: { cueBall: 'kitchen', breakBall: 'as-is', racked: 14 }, breakShot: false });
  });
});

describe('paths that do not re-rack for a break leave the placement as it was', () => {
  it.each(RULESETS)('%s: a breaking foul accepted, a three-foul accepted (NBA), ordinary fouls', (ruleset) => {
    let m = accept(given({ ...fresh141, ruleset }), { shot: { call: 'safety', breakRails: { objectBalls: 0 } } });
    m = accept(m, { choice: 'accept' });
    expectState(m, { rackPlacement: null, breakShot: false });
    if (ruleset === 'nba') {
      m = accept(afterContinuousRerack(ruleset, 2), { shot: { call: { made: false }, cueBall: 'scratch' } });
      m = accept(m, { choice: 'accept' });
      expectState(m, { rackPlacement: { cueBall: 'as-is', breakBall: 'head-spot', racked: 14 }, rack: 4, ballInHand: 'kitchen', turn: 'A' });
    }
  });

  it('a 15-ball re-rack without a break (S-17c, S-18) is placed by the rack area, not D-31', () => {
    const at2 = { ...fresh141, start: { score: [30, 25], ballsOnTable: 2 } };
    expectState(given(at2, [{ shot: { call: { made: true }, pocketed: 2 } }]), {
      rackPlacement: { cueBall: 'as-is', breakBall: 'racked', racked: 15 },
      breakShot: false,
    });
    expectState(given(at2, [{ shot: { call: { made: true }, rackArea: { cueBall: true, breakBall: true } } }]), { rackPlacement: FOR_BREAK, breakShot: false });
  });

  it('a fresh or picked-up 14-1 match has no placement yet; Rotation has none (rackPlacement is a 14-1 fact)', () => {
    expectState(given(fresh141), { rackPlacement: null });
    expectState(given({ ...fresh141, start: { ballsOnTable: 15 } }), { rackPlacement: null });
    let r = given({ ...freshRot, start: { onTable: [15] } }, [{ shot: { firstContact: 15, pocketed: [15] } }]);
    expectState(r, { rack: 2, breakShot: true, rackPlacement: null });
    r = accept(accept(r, { shot: { breakRails: { objectBalls: 2 } } }), { choice: 'rerack' });
    expectState(r, { breakShot: true, rackPlacement: null });
  });
});

describe('property: rackPlacement after every step of random matches (D-31)', () => {
  /** The placement a step must leave, read from the states before and after it (never from captions). */
  function expectedPlacement(before: MatchState, after: MatchState, step: Step): RackPlacement | null | 'any-continuous' {
    if (after.discipline === 'rotation') return null;
    if (after.breakShot && !('warning' in step)) return FOR_BREAK; // every way to a new opening break racks 15
    if (after.rack > before.rack) return 'any-continuous'; // S-16–S-18: decided by the rack area
    return before.rackPlacement;
  }

  it('holds for both rulesets and both disciplines, stalemates included', () => {
    const setups = fc.oneof(
      fc.record({
        discipline: fc.constant('14-1' as const),
        ruleset: fc.constantFrom(...RULESETS),
        players: fc.constant(['A', 'B']),
        targets: fc.constant([120, 120]),
      }),
      fc.record({ discipline: fc.constant('rotation' as const), players: fc.constant(['A', 'B']), targets: fc.constant([240, 240]) }),
    );
    const seen = { forBreak: 0, continuous: 0 };
    fc.assert(
      fc.property(setups, fc.integer(), fc.integer({ min: 20, max: 300 }), (input, seed, length) => {
        const rand = seededRandom(seed);
        let m = newMatch(parseSetup(input));
        for (let i = 0; i < length && m.core.winner === null; i++) {
          const stalemate = input.discipline === '14-1' && m.core.awaiting === null && rand() < 0.02;
          const step: Step = stalemate ? { stalemate: { breaker: rand() < 0.5 ? 'A' : 'B' } } : plausibleStep(m, rand, 0.8);
          const r = applyStep(m, step);
          if (!r.ok) throw new Error(`legal step refused: ${JSON.stringify(step)}: ${r.error.message}`);
          const before = view(m);
          const after = view(r.match);
          const want = expectedPlacement(before, after, step);
          if (want === 'any-continuous') {
            // S-16–S-18: a placement, and the cue ball in hand exactly when the placement says so.
            expect(after.rackPlacement).not.toBeNull();
            expect(after.ballInHand).toBe(after.rackPlacement!.cueBall === 'kitchen' ? 'kitchen' : null);
            seen.continuous++;
          } else {
            expect(after.rackPlacement).toEqual(want);
            if (want === FOR_BREAK && after.steps > before.steps) seen.forBreak++;
          }
          m = r.match;
        }
      }),
      { numRuns: fcRuns(300) },
    );
    // The random matches did exercise both kinds of re-rack.
    expect(seen.forBreak).toBeGreaterThan(20);
    expect(seen.continuous).toBeGreaterThan(20);
  });
});
