/** fast-check generators shared by the rules' property tests: random set-ups and random legal matches. */
import fc from 'fast-check';

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
