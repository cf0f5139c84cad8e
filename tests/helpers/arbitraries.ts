/** fast-check generators shared by the rules' property tests: random set-ups, random legal matches, random shot reports. */
import fc from 'fast-check';
import { applyStep, type Discipline, type Match, newMatch, SHOT_FOULS, type Shot } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { plausibleStep, seededRandom } from '../../shared/simulate';

/**
 * Random set-ups of both disciplines for players `players`: 14-1 (NBA or WPA rules) to 20–150, Rotation with
 * every option to 60–240; with `pickedUp`, also 14-1 matches picked up in progress (score, balls, rack).
 */
export function setupsOf(players: readonly [string, string], opts: { pickedUp?: boolean } = {}) {
  const straight = fc.record({
    discipline: fc.constant('14-1' as const),
    ruleset: fc.constantFrom('nba' as const, 'wpa' as const),
    players: fc.constant([...players]),
    targets: fc.tuple(fc.integer({ min: 20, max: 150 }), fc.integer({ min: 20, max: 150 })),
  });
  const rotation = fc.record({
    discipline: fc.constant('rotation' as const),
    players: fc.constant([...players]),
    options: fc.record({
      callShot: fc.boolean(),
      pushOut: fc.boolean(),
      format: fc.constantFrom('race' as const, 'single-rack-61' as const),
      threeFoulRule: fc.boolean(),
    }),
    targets: fc.tuple(fc.integer({ min: 60, max: 240 }), fc.integer({ min: 60, max: 240 })),
  });
  const pickedUp = fc.record({
    discipline: fc.constant('14-1' as const),
    players: fc.constant([...players]),
    start: fc.record({
      score: fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 })),
      ballsOnTable: fc.integer({ min: 2, max: 15 }),
      rack: fc.integer({ min: 1, max: 4 }),
    }),
  });
  return opts.pickedUp ? fc.oneof(straight, rotation, pickedUp) : fc.oneof(straight, rotation);
}

/** A random legal match: a set-up, a seed for the step generator, skill, an undo rate from `undoRates` and a length up to `maxLength`. */
export function matchesOf<S>(setups: fc.Arbitrary<S>, undoRates: readonly number[], maxLength: number) {
  return fc.record({
    setup: setups,
    seed: fc.integer(),
    skill: fc.double({ min: 0.2, max: 0.95, noNaN: true }),
    undoRate: fc.constantFrom(...undoRates),
    length: fc.integer({ min: 1, max: maxLength }),
  });
}

const ball = fc.integer({ min: 1, max: 15 });
const bool = fc.boolean();
/** Present in about 1 report in `n`. */
const sometimes = <T>(arb: fc.Arbitrary<T>, n: number) => fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
const calls = fc.oneof(fc.constant('safety' as const), fc.record({ ball, made: bool, pocket: fc.constant('corner') }, { requiredKeys: [] }));
const rackArea = fc.record({ cueBall: bool, breakBall: bool, breakBallInKitchen: bool, headSpotTaken: bool }, { requiredKeys: [] });
/** Present in about 10 reports in 11. */
const mostly = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 10, arbitrary: arb });

/**
 * Random shot reports in discipline `d`'s own words most of the time, with now and then a fact of the other
 * one, of another kind of shot, or facts that contradict each other (D-30).
 */
export function shotReports(d: Discipline, callShot: boolean): fc.Arbitrary<Shot> {
  const own = d === '14-1';
  return fc
    .record({
      call: own ? mostly(calls) : sometimes(calls, callShot ? 2 : 12),
      pocketed: sometimes(
        fc.oneof(fc.uniqueArray(ball, { maxLength: 3 }), fc.array(ball, { maxLength: 2 }), ...(own ? [fc.integer({ min: 0, max: 3 })] : [])),
        2,
      ),
      offTable: sometimes(fc.uniqueArray(ball, { maxLength: 1 }), 8),
      firstContact: sometimes(fc.option(ball, { nil: null, freq: 6 }), own ? 8 : 2),
      rail: sometimes(bool, 6),
      breakRails: sometimes(
        fc.record({ objectBalls: fc.integer({ min: 0, max: 6 }), cueBall: bool }, { requiredKeys: own ? ['objectBalls', 'cueBall'] : ['objectBalls'] }),
        3,
      ),
      cueBall: sometimes(fc.constantFrom('scratch' as const, 'off-table' as const), 8),
      fouls: sometimes(fc.uniqueArray(fc.constantFrom(...SHOT_FOULS), { maxLength: 2 }), 8),
      pushOut: sometimes(bool, own ? 30 : 4),
      cueBallInKitchen: sometimes(bool, own ? 30 : 6),
      rackArea: sometimes(rackArea, own ? 4 : 30),
    })
    .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as Shot);
}

/** Set-ups of the report properties: both 14-1 rulesets (one picked up near a re-rack), Rotation with and without call shot. */
const REPORT_SETUPS = [
  { discipline: '14-1', ruleset: 'nba', players: ['A', 'B'] },
  { discipline: '14-1', ruleset: 'wpa', players: ['A', 'B'], start: { ballsOnTable: 3 } },
  { discipline: 'rotation', players: ['A', 'B'] },
  { discipline: 'rotation', players: ['A', 'B'], options: { callShot: true } },
] as const;

/** A set-up, a seed and a length of plausible play before the report (`playedTo`), and a random report (`shotReports`). */
export const reportsInPlay = fc
  .constantFrom(...REPORT_SETUPS)
  .chain((input) => fc.tuple(fc.constant(input as unknown), fc.integer(), fc.integer({ min: 0, max: 40 }), shotReports(input.discipline, 'options' in input)));

/** The match after up to `length` plausible steps (shared/simulate, seeded) from set-up `input`, stopping at a win. */
export function playedTo(input: unknown, seed: number, length: number): Match {
  const rand = seededRandom(seed);
  let m = newMatch(parseSetup(input));
  for (let i = 0; i < length && !m.core.winner; i++) {
    const r = applyStep(m, plausibleStep(m, rand));
    if (r.ok) m = r.match;
  }
  return m;
}
