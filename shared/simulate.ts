/**
 * A plausible next step for the current state of a match, for property tests, benchmarks and the demo
 * (a streamer rehearsing the overlay). Pure: randomness is injected as a uniform source in [0, 1).
 * Every step it returns is legal for the state it was given.
 */
import { mulberry32 } from './prng';
import type { Match } from './engine';
import { legalPlacements } from './rules/rotation';
import type { RackArea, Step } from './protocol/steps';

/** Uniform random source in [0, 1), e.g. a seeded generator. */
export type Random = () => number;

/**
 * Pick a plausible legal step (never `undo`). `skill` ∈ [0, 1] is the chance a shot is a made ball.
 * @returns a step the engine accepts for `match` (unless the match is over).
 */
export function plausibleStep(match: Match, rand: Random, skill = 0.7): Step {
  return match.setup.discipline === '14-1' ? straightPoolStep(match, rand, skill) : rotationStep(match, rand, skill);
}

const pick = <T>(items: readonly T[], rand: Random): T => items[Math.floor(rand() * items.length)]!;
const chance = (p: number, rand: Random) => rand() < p;
const FOULS = [{ cueBall: 'scratch' }, { rail: false }, { firstContact: null }, { fouls: ['touched-ball'] }, { fouls: ['double-hit'] }] as const;

function straightPoolStep(match: Match, rand: Random, skill: number): Step {
  const c = match.core;
  if (c.awaiting === 'break-foul-choice') return { choice: chance(0.6, rand) ? 'accept' : 'rebreak' };
  if (c.awaiting === 'three-foul-choice') return { choice: chance(0.5, rand) ? 'accept' : 'rerack' };
  const table = c.table;
  const ball = () => (table ? pick(table, rand) : 1 + Math.floor(rand() * 15));
  if (c.breakShot) {
    const r = rand();
    if (r < 0.65) return { shot: { call: 'safety', breakRails: { objectBalls: 2 + Math.floor(rand() * 3), cueBall: true } } };
    if (r < 0.8) return { shot: { call: 'safety', breakRails: { objectBalls: Math.floor(rand() * 2), cueBall: true } } };
    if (r < 0.88) return { shot: { call: 'safety', breakRails: { objectBalls: 3, cueBall: true }, cueBall: 'scratch' } };
    const b = ball();
    return { shot: { call: { ball: b }, pocketed: table ? [b] : 1 } };
  }
  const r = rand();
  if (r < skill) {
    const n = c.count >= 3 && chance(0.1, rand) ? 2 : 1;
    const left = c.count - n;
    const rackArea = left <= 1 && chance(0.4, rand) ? plausibleRackArea(left, rand) : undefined;
    if (table && chance(0.85, rand)) {
      const balls = [...table].sort(() => rand() - 0.5).slice(0, n);
      return { shot: { call: { ball: balls[0]! }, pocketed: balls, ...(rackArea ? { rackArea } : {}) } };
    }
    return { shot: { call: { made: true }, pocketed: n, ...(rackArea ? { rackArea } : {}) } };
  }
  if (r < skill + 0.12) return { shot: { call: 'safety', ...(table && chance(0.1, rand) ? { pocketed: [pick(table, rand)] } : {}) } };
  if (r < skill + 0.2) return { shot: { call: { ball: ball() } } };
  return { shot: { call: { ball: ball() }, ...pick(FOULS, rand) } as Step extends { shot: infer S } ? S : never };
}

/**
 * Rack-area facts a referee can see when a scoring shot leaves `left` balls (S-16–S-18): never the break ball
 * both in the rack area and behind the head string, nothing about a break ball when none is left, and no
 * "head spot taken" when both balls lie in the rack area (D-30 refuses those).
 */
function plausibleRackArea(left: number, rand: Random): RackArea {
  const cueBall = chance(0.5, rand);
  const breakBall = chance(0.5, rand);
  const breakBallInKitchen = chance(0.3, rand) && !breakBall;
  const headSpotTaken = chance(0.2, rand) && !(cueBall && breakBall);
  return left === 0 ? { cueBall } : { cueBall, breakBall, breakBallInKitchen, headSpotTaken };
}

function rotationStep(match: Match, rand: Random, skill: number): Step {
  const c = match.core;
  const opt = match.setup.discipline === 'rotation' ? match.setup.options : null;
  if (c.awaiting === 'foul-placement') return { choice: pick(legalPlacements(c.placement!), rand) };
  if (c.awaiting === 'push-out-choice') return { choice: chance(0.5, rand) ? 'shoot' : 'pass' };
  if (c.awaiting === 'illegal-break-choice') return { choice: chance(0.5, rand) ? 'accept' : 'rerack' };
  const table = c.table ?? [];
  const low = table[0]!;
  if (c.breakShot) {
    const r = rand();
    if (r < 0.7) {
      const balls = [...table].sort(() => rand() - 0.5).slice(0, Math.floor(rand() * 3));
      return { shot: { firstContact: 1, pocketed: balls, breakRails: { objectBalls: 4 + Math.floor(rand() * 4) } } };
    }
    if (r < 0.85) return { shot: { firstContact: 1, breakRails: { objectBalls: Math.floor(rand() * 4) } } };
    return { shot: { firstContact: 1, cueBall: 'scratch', pocketed: chance(0.5, rand) ? [pick(table, rand)] : [] } };
  }
  if (opt?.pushOut && c.pushOutAvailable && chance(0.2, rand)) {
    return { shot: { pushOut: true, ...(chance(0.1, rand) ? { cueBall: 'scratch' as const } : {}) } };
  }
  const r = rand();
  const call = (b: number) => (opt?.callShot ? { call: { ball: b } } : {});
  if (r < skill) {
    const extra = table.length > 2 && chance(0.15, rand) ? [pick(table.slice(1), rand)] : [];
    const balls = [low, ...extra];
    const last = balls.length === table.length;
    return { shot: { firstContact: low, pocketed: balls, ...call(low), ...(last ? { cueBallInKitchen: chance(0.4, rand) } : {}) } };
  }
  if (r < skill + 0.12) return { shot: { firstContact: low, ...(opt?.callShot ? { call: 'safety' as const } : {}) } };
  if (r < skill + 0.2) return { shot: { firstContact: low, ...call(low) } };
  const wrong = table.length > 1 ? table[1]! : null;
  return { shot: chance(0.5, rand) ? { firstContact: wrong } : { firstContact: low, cueBall: 'scratch' } };
}

/** Small seeded generator (mulberry32, shared/prng.ts): the same seed gives the same match. */
export function seededRandom(seed: number): Random {
  return mulberry32(seed);
}
