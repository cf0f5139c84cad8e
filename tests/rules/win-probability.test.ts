/**
 * The "what it takes" model (shared/win-probability.ts): estimates with shrinkage, the 14-1 race chance (in
 * [0, 1], the two summing to 1, never rising with the points a player needs, 1 once won, deterministic) and
 * Rotation's points left against the 61 clinch and the match.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyStep, newMatch, view } from '../../shared/engine';
import type { Step } from '../../shared/protocol/steps';
import {
  DEFAULT_PRIOR,
  estimatePlayer,
  fourteenOneOdds,
  matchRecords,
  raceChance,
  rotationOdds,
  whatItTakes,
  type FourteenOneSpot,
} from '../../shared/win-probability';
import { parseSetup } from '../../server/protocol/setup-schemas';

const PEN = { standard: 1, threeFoulExtra: 15 };
const spot = (needed: [number, number], atTable: 'A' | 'B' = 'A', fouls: [number, number] = [0, 0]): FourteenOneSpot => ({
  needed,
  atTable,
  fouls,
  winner: null,
  penalties: PEN,
});
const rec = (points: number, innings: number, fouls?: number) => ({ points, innings, ...(fouls === undefined ? {} : { fouls }) });
const FAST = { samples: 200 };

describe('estimatePlayer: the prior, shrunk toward the player', () => {
  it('with no innings gives the population prior', () => {
    const e = estimatePlayer(rec(0, 0));
    expect(e.expectedRun).toBeCloseTo(DEFAULT_PRIOR.run, 6);
    expect(e.foulRate).toBeCloseTo(DEFAULT_PRIOR.foulRate, 6);
  });
  it('moves toward the player as innings pile up, and earlier matches count', () => {
    const few = estimatePlayer(rec(30, 3, 0));
    const many = estimatePlayer(rec(300, 30, 0));
    expect(few.expectedRun).toBeGreaterThan(DEFAULT_PRIOR.run);
    expect(many.expectedRun).toBeGreaterThan(few.expectedRun);
    expect(many.expectedRun).toBeLessThan(10);
    expect(estimatePlayer(rec(30, 3, 0), rec(270, 27, 0)).expectedRun).toBeCloseTo(many.expectedRun, 9);
  });
  it('counts the penalties paid as balls pocketed (net points plus fouls)', () => {
    expect(estimatePlayer(rec(10, 10, 5)).beta.made).toBeCloseTo(15 + DEFAULT_PRIOR.run * DEFAULT_PRIOR.weight, 9);
  });
  it('refuses bad counts and priors, naming the field', () => {
    expect(() => estimatePlayer(rec(1, -1))).toThrow(/innings/);
    expect(() => estimatePlayer(rec(Number.NaN, 1))).toThrow(/points/);
    expect(() => estimatePlayer(rec(1, 1), rec(1, 1, -2))).toThrow(/earlier\.fouls/);
    expect(() => estimatePlayer(rec(1, 1), null, { ...DEFAULT_PRIOR, foulRate: 1 })).toThrow(/prior\.foulRate/);
    expect(() => fourteenOneOdds(spot([5, 5]), [rec(0, 0), rec(0, 0)], { samples: 0 })).toThrow(/samples/);
  });
});

describe('14-1 odds', () => {
  const even = [rec(0, 0), rec(0, 0)] as const;
  it('are 1 and 0 once the match is won, and when a need is 0', () => {
    expect(fourteenOneOdds({ ...spot([0, 40]), winner: 'A' }, [...even]).chance).toEqual([1, 0]);
    expect(fourteenOneOdds({ ...spot([3, 40]), winner: 'B' }, [...even]).chance).toEqual([0, 1]);
    expect(fourteenOneOdds(spot([0, 40], 'B'), [...even]).chance).toEqual([1, 0]);
  });
  it('favour the player at the table, the one who needs less and the better player', () => {
    const at = fourteenOneOdds(spot([20, 20], 'A'), [...even]).chance[0];
    const away = fourteenOneOdds(spot([20, 20], 'B'), [...even]).chance[0];
    expect(at).toBeGreaterThan(away);
    expect(fourteenOneOdds(spot([10, 60], 'B'), [...even]).chance[0]).toBeGreaterThan(0.8);
    const better = fourteenOneOdds(spot([50, 50], 'B'), [rec(200, 20, 1), rec(40, 20, 4)]).chance[0];
    expect(better).toBeGreaterThan(0.8);
  });
  it('are the same on every call (fixed seed)', () => {
    const a = fourteenOneOdds(spot([33, 41], 'B', [2, 0]), [rec(40, 9, 2), rec(51, 10, 1)]);
    expect(fourteenOneOdds(spot([33, 41], 'B', [2, 0]), [rec(40, 9, 2), rec(51, 10, 1)])).toEqual(a);
  });
  it('a player on two fouls is worse off (a third foul costs 16)', () => {
    const clean = fourteenOneOdds(spot([30, 30], 'A'), [rec(20, 20, 10), rec(20, 20, 10)]).chance[0];
    const onTwo = fourteenOneOdds(spot([30, 30], 'A', [2, 0]), [rec(20, 20, 10), rec(20, 20, 10)]).chance[0];
    expect(onTwo).toBeLessThan(clean);
  });

  const records = fc.tuple(
    fc.record({
      points: fc.integer({ min: -40, max: 300 }),
      innings: fc.integer({ min: 0, max: 60 }),
      fouls: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
    }),
    fc.record({
      points: fc.integer({ min: -40, max: 300 }),
      innings: fc.integer({ min: 0, max: 60 }),
      fouls: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
    }),
  );
  const clean = (r: { points: number; innings: number; fouls?: number | undefined }) => ({
    points: r.points,
    innings: r.innings,
    ...(r.fouls === undefined ? {} : { fouls: r.fouls }),
  });
  const need = fc.integer({ min: 0, max: 150 });
  const turn = fc.constantFrom<'A' | 'B'>('A', 'B');
  const fouls = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }));

  it('property: chances in [0, 1] and summing to 1', () => {
    fc.assert(
      fc.property(need, need, turn, fouls, records, (a, b, t, f, [ra, rb]) => {
        const c = fourteenOneOdds(spot([a, b], t, f), [clean(ra), clean(rb)], FAST).chance;
        expect(c[0]).toBeGreaterThanOrEqual(0);
        expect(c[0]).toBeLessThanOrEqual(1);
        expect(c[0] + c[1]).toBe(1);
      }),
      { numRuns: 60 },
    );
  });
  it('property: a player who needs more never has a better chance (and the opponent never a worse one)', () => {
    fc.assert(
      fc.property(need, need, fc.integer({ min: 1, max: 30 }), turn, fouls, records, (a, b, more, t, f, [ra, rb]) => {
        const r = [clean(ra), clean(rb)] as [ReturnType<typeof clean>, ReturnType<typeof clean>];
        const base = fourteenOneOdds(spot([a, b], t, f), r, FAST).chance[0];
        expect(fourteenOneOdds(spot([a + more, b], t, f), r, FAST).chance[0]).toBeLessThanOrEqual(base);
        expect(fourteenOneOdds(spot([a, b + more], t, f), r, FAST).chance[0]).toBeGreaterThanOrEqual(base);
      }),
      { numRuns: 40 },
    );
  });
  it('property: 1 for the winner once the match is won', () => {
    fc.assert(
      fc.property(need, need, turn, records, (a, b, w, [ra, rb]) => {
        const c = fourteenOneOdds({ ...spot([a, b]), winner: w }, [clean(ra), clean(rb)], FAST).chance;
        expect(c[w === 'A' ? 0 : 1]).toBe(1);
      }),
      { numRuns: 30 },
    );
  });
  it('raceChance is symmetric: the same race seen from the other side sums to 1', () => {
    const e = estimatePlayer(rec(30, 10, 1));
    const a = raceChance({ needed: [25, 25], players: [e, e], fouls: [0, 0], atTable: 'A', penalties: PEN, samples: 2000 });
    expect(a).toBeGreaterThan(0.5);
    expect(a).toBeLessThan(0.7);
  });
});

describe('whatItTakes from a real match', () => {
  it('14-1: reads the state (needs, open inning, fouls standing) and the statistics', () => {
    const setup = parseSetup({ discipline: '14-1', players: ['Ann', 'Bo'], targets: [25, 25] });
    let m = newMatch(setup);
    const steps: Step[] = [
      { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } },
      { shot: { call: { made: true }, pocketed: 1 } },
      { shot: { call: { made: true }, pocketed: 1 } },
    ];
    for (const s of steps) {
      const r = applyStep(m, s);
      if (!r.ok) throw new Error(r.error.message);
      m = r.match;
    }
    const s = view(m);
    expect(matchRecords(s, setup.startScore)).toEqual([rec(0, 1), rec(2, 0)]);
    const w = whatItTakes(s, setup);
    if (w.discipline !== '14-1') throw new Error('14-1 expected');
    expect(w.needed).toEqual([25, 23]);
    expect(w.atTable).toBe('B');
    expect(w.chance[1]).toBeGreaterThan(0.5);
  });
  it('Rotation: points left against 61 and the match', () => {
    const setup = parseSetup({ discipline: 'rotation', players: ['Ann', 'Bo'] });
    const s = { ...view(newMatch(setup)), pointsLeft: 50, rackPoints: [55, 15] as [number, number], needed: [40, 105] as [number, number] };
    const r = rotationOdds(s, 'race');
    expect(r.rackNeeded).toEqual([6, 46]);
    expect(r.canClinch).toEqual([true, true]);
    expect(r.canWinThisRack).toEqual([true, false]);
    expect(r.racksAfter).toEqual([0, 1]);
    const clinched = rotationOdds({ ...s, rackPoints: [61, 9], rackClinchedBy: 'A' }, 'race');
    expect(clinched.canClinch).toEqual([false, false]);
    expect(clinched.rackNeeded).toEqual([0, 52]);
    const single = rotationOdds({ ...s, needed: [6, 46] }, 'single-rack-61');
    expect(single.matchNeeded).toEqual([6, 46]);
    expect(single.racksAfter).toEqual([0, 0]);
    expect(rotationOdds({ ...s, pointsLeft: 40 }, 'race').canClinch).toEqual([true, false]);
  });
});
