/**
 * "What it takes": the points each player still needs and, for 14-1, each player's chance to win the match,
 * from a model of both players' innings (docs/commentators.md § What it takes). Pure and deterministic: the
 * model is simulated with the seeded generator of ./prng.ts from a fixed seed, so the same state always gives
 * the same chance on every page and machine.
 *
 * The 14-1 model and its assumptions:
 * - **Innings.** In each inning a player pockets the next ball with a fixed chance `p` (the continuation chance)
 *   until the first miss, safety or foul, so an inning's balls are geometric: P(k) = p^k (1 − p); a run in
 *   progress changes nothing about what comes next (memoryless: the player at the table simply goes on). An
 *   inning ends in a foul with chance `f`: the standard penalty (S-13), and on a third consecutive foul the extra
 *   penalty too (S-14), counted from the fouls standing now; a ball pocketed or an inning ended without a foul
 *   clears the count.
 * - **Estimates with shrinkage.** `p` and `f` are Beta posteriors: a population prior ({@link OddsPrior}: a typical
 *   player's points an inning and foul rate, worth `weight` innings) updated with the player's balls pocketed
 *   (gross points: net points plus the penalties paid) over finished innings, and fouls over finished innings.
 *   Few innings: near the population; many: the player's own. Innings of earlier matches of the event, when
 *   given, are pooled with this match's at the same weight.
 * - **Uncertainty.** Each simulated match draws both players' `p` and `f` from their posteriors (not their
 *   means), so a chance early in a match is as uncertain as the little it rests on.
 * - **Who is at the table.** The player whose turn it is (`state.turn`, also the one to make a pending choice)
 *   shoots next; the opening break's usual safety, safety play, position and pressure are not modelled, and the
 *   two players' innings are independent.
 * - `SAMPLES` simulated finishes from the fixed seed `SEED` (±1.1 points of chance at worst); the same random
 *   numbers serve every state (common random numbers), so the chance never rises with the points a player
 *   needs, and it is exactly 1 / 0 once the match is won.
 *
 * The model is calibrated on simulated matches of known skill: `npm run calibrate:odds` (bench/calibrate-odds.ts)
 * and tests/rules/win-probability-calibration.test.ts.
 *
 * Rotation: no win chance, the plain arithmetic of the table: points left against what each player needs to
 * clinch the rack (61, R-13) and to win the match (R-3 / R-3a).
 */
import type { MatchSetup, Pair, PlayerKey, RotationOptions } from './protocol/setup';
import type { MatchState, PlayerStats } from './protocol/state';
import { RACK_CLINCH } from './protocol/vocabulary';
import { mulberry32 } from './prng';

/** A player's innings as the model reads them. */
export interface InningsRecord {
  /** Net points of those innings (points scored less foul penalties; the score change). */
  points: number;
  /** Finished innings (each ended by a miss, a safety or a foul; an open inning's points count, its end not yet). */
  innings: number;
  /** Fouls committed; unknown (undefined): the prior's foul rate is taken for them. */
  fouls?: number;
  /** Third-foul penalties taken (S-14); unknown: none. */
  threeFouls?: number;
}

/** The population prior: a typical player's points an inning and foul rate, and how many innings it weighs. */
export interface OddsPrior {
  /** Balls pocketed an inning by the population (> 0). */
  run: number;
  /** Share of the population's innings that end in a foul, in (0, 1). */
  foulRate: number;
  /** Innings the prior is worth (> 0): a player's own innings outweigh it after about this many. */
  weight: number;
}

/**
 * Default prior: 3 balls an inning (club and league 14-1; a professional averages 8–15), one inning in ten
 * ending in a foul, worth 6 innings. The calibration (bench/calibrate-odds.ts) uses it.
 */
export const DEFAULT_PRIOR: OddsPrior = { run: 3, foulRate: 0.1, weight: 6 };

/** Foul penalties of the set-up (S-13, S-14); the NBA and WPA default 1 and 15. */
export interface Penalties {
  standard: number;
  threeFoulExtra: number;
}

/** The simulated finishes per chance. */
export const SAMPLES = 2000;
/** The fixed seed of the simulation. */
export const SEED = 0x14_01;
/** Innings a simulated finish may take before it is scored by who is closer (never reached by a real race). */
const MAX_INNINGS = 20_000;

/** A player's estimate: the posterior means and the figures they rest on. */
export interface PlayerEstimate {
  /** Chance to pocket the next ball (posterior mean), in (0, 1). */
  perBall: number;
  /** Chance an inning ends in a foul (posterior mean), in (0, 1). */
  foulRate: number;
  /** Expected balls of an inning: perBall / (1 − perBall). */
  expectedRun: number;
  /** Innings the estimate rests on (this match's finished innings plus the earlier matches'). */
  innings: number;
  /** Beta parameters of the continuation chance and of the foul rate. */
  beta: { made: number; missed: number; fouls: number; clean: number };
}

/** 14-1: what each player needs and their chance to win, A first. */
export interface FourteenOneOdds {
  discipline: '14-1';
  /** Points still needed (never below 0). */
  needed: Pair<number>;
  /** Chance each player wins the match, in [0, 1], summing to 1 (1 and 0 once the match is won). */
  chance: Pair<number>;
  /** Each player's model estimate. */
  players: Pair<PlayerEstimate>;
  /** Who shoots next under the model (the winner once the match is over). */
  atTable: PlayerKey;
}

/** Rotation: the points left on the table against what each player needs, A first. */
export interface RotationOdds {
  discipline: 'rotation';
  /** Sum of the values of the balls on the table (120 at the start of a rack). */
  pointsLeft: number;
  /** Points each player needs to reach 61 in this rack (0 once reached). */
  rackNeeded: Pair<number>;
  /** Each player can still reach 61 in this rack (needs no more than the points left, and nobody has clinched it). */
  canClinch: Pair<boolean>;
  /** The player who has reached 61 in this rack, or null. */
  clinchedBy: PlayerKey | null;
  /** Points each player needs to win the match (never below 0). */
  matchNeeded: Pair<number>;
  /** Each player can win the match in this rack (needs no more than the points left; a single rack: can reach 61). */
  canWinThisRack: Pair<boolean>;
  /** Full racks of 120 each player needs after this one at the least (0 when the points left are enough). */
  racksAfter: Pair<number>;
}

/** What it takes, for either discipline. */
export type WhatItTakes = FourteenOneOdds | RotationOdds;

/** Optional inputs of the 14-1 odds. */
export interface OddsOptions {
  /** Each player's innings in their earlier matches of the event (null: none). */
  earlier?: Pair<InningsRecord | null>;
  /** The population prior (default {@link DEFAULT_PRIOR}). */
  prior?: OddsPrior;
  /** Simulated finishes (default {@link SAMPLES}; fewer: faster and coarser). */
  samples?: number;
}

const count = (v: unknown, field: string, min = 0): number => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min) throw new RangeError(`${field}: must be a finite number ≥ ${min} (got ${String(v)})`);
  return v;
};

function checkPrior(prior: OddsPrior): void {
  if (!(prior.run > 0 && Number.isFinite(prior.run))) throw new RangeError(`prior.run: must be a finite number > 0 (got ${String(prior.run)})`);
  if (!(prior.foulRate > 0 && prior.foulRate < 1)) throw new RangeError(`prior.foulRate: must be in (0, 1) (got ${String(prior.foulRate)})`);
  if (!(prior.weight > 0 && Number.isFinite(prior.weight))) throw new RangeError(`prior.weight: must be a finite number > 0 (got ${String(prior.weight)})`);
}

/**
 * A player's posterior from the prior, their `record` in this match and `earlier` (pooled).
 * @throws RangeError naming the field when a count is negative or not finite, or the prior is out of range.
 */
export function estimatePlayer(
  record: InningsRecord,
  earlier: InningsRecord | null = null,
  prior: OddsPrior = DEFAULT_PRIOR,
  penalties: Penalties = { standard: 1, threeFoulExtra: 15 },
): PlayerEstimate {
  checkPrior(prior);
  let innings = 0;
  let made = 0;
  let fouls = 0;
  for (const [r, at] of [
    [record, ''],
    [earlier, 'earlier.'],
  ] as const) {
    if (!r) continue;
    const n = count(r.innings, `${at}innings`);
    const f = r.fouls === undefined ? prior.foulRate * n : count(r.fouls, `${at}fouls`);
    const three = r.threeFouls === undefined ? 0 : count(r.threeFouls, `${at}threeFouls`);
    // Balls pocketed: the net points plus the penalties paid (never below 0).
    made += Math.max(0, count(r.points, `${at}points`, -Infinity) + f * penalties.standard + three * penalties.threeFoulExtra);
    fouls += Math.min(f, n);
    innings += n;
  }
  const beta = {
    made: made + prior.run * prior.weight,
    missed: innings + prior.weight,
    fouls: fouls + prior.foulRate * prior.weight,
    clean: innings - fouls + (1 - prior.foulRate) * prior.weight,
  };
  const perBall = beta.made / (beta.made + beta.missed);
  return { perBall, foulRate: beta.fouls / (beta.fouls + beta.clean), expectedRun: perBall / (1 - perBall), innings, beta };
}

/** A standard normal variate (Box–Muller) from `rand`. */
function normal(rand: () => number): number {
  const u = 1 - rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** A Gamma(shape, 1) variate, shape ≥ 1 (Marsaglia–Tsang); below 1 by the boost u^(1/shape). */
function gamma(shape: number, rand: () => number): number {
  if (shape < 1) return gamma(shape + 1, rand) * Math.pow(1 - rand(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(rand);
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = 1 - rand();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** A Beta(a, b) variate, clamped into (0, 1). */
function beta(a: number, b: number, rand: () => number): number {
  const x = gamma(a, rand);
  const y = gamma(b, rand);
  return Math.min(1 - 1e-9, Math.max(1e-9, x / (x + y)));
}

/** What a race simulation starts from: each player's need, posterior, consecutive fouls standing, and who shoots. */
export interface RaceStart {
  needed: Pair<number>;
  players: Pair<PlayerEstimate>;
  /** Consecutive fouls standing (0–2). */
  fouls: Pair<number>;
  atTable: PlayerKey;
  penalties: Penalties;
  samples: number;
}

/**
 * Chance player A wins the race from `start` (the share of `start.samples` simulated finishes A wins; common
 * random numbers from {@link SEED}: every finish draws the same numbers whatever the needs, so a bigger need never
 * wins more often). A need of 0 has won.
 */
export function raceChance(start: RaceStart): number {
  const [needA, needB] = start.needed;
  if (needA <= 0) return 1;
  if (needB <= 0) return 0;
  const [ea, eb] = start.players;
  let wins = 0;
  for (let i = 0; i < start.samples; i++) {
    const rand = mulberry32(SEED + i * 0x9e37);
    // Each finish's own skills, drawn from the posteriors (the same draws for every state).
    const p = [beta(ea.beta.made, ea.beta.missed, rand), beta(eb.beta.made, eb.beta.missed, rand)];
    const f = [beta(ea.beta.fouls, ea.beta.clean, rand), beta(eb.beta.fouls, eb.beta.clean, rand)];
    const logP = [Math.log(p[0]!), Math.log(p[1]!)];
    const need = [needA, needB];
    const fouls = [start.fouls[0], start.fouls[1]];
    let k = start.atTable === 'A' ? 0 : 1;
    let winner = -1;
    for (let n = 0; n < MAX_INNINGS; n++) {
      const run = Math.floor(Math.log(1 - rand()) / logP[k]!);
      const foul = rand() < f[k]!;
      if (run >= need[k]!) {
        winner = k;
        break;
      }
      need[k]! -= run;
      if (foul) {
        // A ball pocketed in the inning clears the count before this foul (S-14).
        const c = run > 0 ? 1 : fouls[k]! + 1;
        need[k]! += start.penalties.standard + (c === 3 ? start.penalties.threeFoulExtra : 0);
        fouls[k] = c === 3 ? 0 : c;
      } else fouls[k] = 0;
      k = 1 - k;
    }
    if (winner === -1) winner = need[0]! <= need[1]! ? 0 : 1;
    if (winner === 0) wins++;
  }
  return wins / start.samples;
}

/**
 * Each player's innings in this match from the state (and the statistics when at hand): net points since
 * recording began (score less the set-up's start score), finished innings (the innings played less the open one:
 * the player at the table with a run going, or the winner's last inning, which no miss ended), and the fouls and third-foul penalties from `stats`.
 */
export function matchRecords(
  state: MatchState,
  startScore: Pair<number>,
  stats?: Pair<Pick<PlayerStats, 'fouls' | 'threeFouls' | 'breakingFouls'>>,
): Pair<InningsRecord> {
  const rec = (k: 0 | 1): InningsRecord => {
    // The inning at the table with a run going has not ended in a miss (nor has a match-winning one).
    const open = state.turn === (k === 0 ? 'A' : 'B') && state.run > 0 ? 1 : 0;
    const s = stats?.[k];
    return {
      points: state.score[k] - startScore[k],
      innings: Math.max(0, state.innings[k] - open),
      ...(s ? { fouls: s.fouls + s.breakingFouls, threeFouls: s.threeFouls } : {}),
    };
  };
  return [rec(0), rec(1)];
}

/** What the 14-1 odds start from, besides the records: needs, who is at the table, fouls standing, the penalties. */
export interface FourteenOneSpot {
  needed: Pair<number>;
  atTable: PlayerKey;
  fouls: Pair<number>;
  winner: PlayerKey | null;
  penalties: Penalties;
}

/**
 * 14-1 odds from both players' innings `records` at `spot`, with the optional earlier innings, prior and sample count.
 * @throws RangeError naming the field on a bad count, prior or sample count.
 */
export function fourteenOneOdds(spot: FourteenOneSpot, records: Pair<InningsRecord>, options: OddsOptions = {}): FourteenOneOdds {
  const prior = options.prior ?? DEFAULT_PRIOR;
  const samples = options.samples ?? SAMPLES;
  if (!Number.isInteger(samples) || samples < 1 || samples > 100_000) throw new RangeError(`samples: must be an integer in 1…100000 (got ${samples})`);
  const players: Pair<PlayerEstimate> = [
    estimatePlayer(records[0], options.earlier?.[0] ?? null, prior, spot.penalties),
    estimatePlayer(records[1], options.earlier?.[1] ?? null, prior, spot.penalties),
  ];
  const needed: Pair<number> = [Math.max(0, Math.ceil(spot.needed[0])), Math.max(0, Math.ceil(spot.needed[1]))];
  const a = spot.winner
    ? spot.winner === 'A'
      ? 1
      : 0
    : raceChance({ needed, players, fouls: spot.fouls, atTable: spot.atTable, penalties: spot.penalties, samples });
  return { discipline: '14-1', needed, chance: [a, 1 - a], players, atTable: spot.winner ?? spot.atTable };
}

/** Rotation's points left against what each player needs to clinch the rack (61) and the match (R-3, R-3a, R-13), for the set-up's `format`. */
export function rotationOdds(state: MatchState, format: RotationOptions['format']): RotationOdds {
  const single = format === 'single-rack-61';
  const left = state.pointsLeft;
  const clinchedBy = state.rackClinchedBy;
  const rackNeeded: Pair<number> = [Math.max(0, RACK_CLINCH - state.rackPoints[0]), Math.max(0, RACK_CLINCH - state.rackPoints[1])];
  const canClinch = (k: 0 | 1): boolean => !state.winner && clinchedBy === null && rackNeeded[k] <= left;
  const matchNeeded: Pair<number> = single ? rackNeeded : [Math.max(0, state.needed[0]), Math.max(0, state.needed[1])];
  const canWin = (k: 0 | 1): boolean => !state.winner && (single ? canClinch(k) : matchNeeded[k] <= left);
  const racksAfter = (k: 0 | 1): number => (single || state.winner ? 0 : Math.max(0, Math.ceil((matchNeeded[k] - left) / 120)));
  return {
    discipline: 'rotation',
    pointsLeft: left,
    rackNeeded,
    canClinch: [canClinch(0), canClinch(1)],
    clinchedBy,
    matchNeeded,
    canWinThisRack: [canWin(0), canWin(1)],
    racksAfter: [racksAfter(0), racksAfter(1)],
  };
}

/**
 * What it takes at `state`: 14-1 odds from this match's innings (the fouls from `stats` when at hand; the
 * earlier matches' innings when given), or Rotation's points. `setup` gives the discipline, start score,
 * penalties and Rotation format.
 */
export function whatItTakes(
  state: MatchState,
  setup: MatchSetup,
  options: OddsOptions & { stats?: Pair<Pick<PlayerStats, 'fouls' | 'threeFouls' | 'breakingFouls'>> } = {},
): WhatItTakes {
  if (setup.discipline === 'rotation') return rotationOdds(state, setup.options.format);
  const penalties = { standard: setup.options.standardFoulPenalty, threeFoulExtra: setup.options.threeFoulExtraPenalty };
  const spot = { needed: state.needed, atTable: state.turn, fouls: state.fouls, winner: state.winner, penalties };
  return fourteenOneOdds(spot, matchRecords(state, setup.startScore, options.stats), options);
}
