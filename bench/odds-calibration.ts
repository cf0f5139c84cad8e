/**
 * Calibration of the 14-1 win chance (shared/win-probability.ts) on simulated matches of known skill: each match
 * gives its two players a per-shot skill drawn from a range (shared/simulate.ts `plausibleStep`: the chance a
 * shot pockets a ball; the rest are safeties, misses and fouls, with breaking fouls and three-foul penalties),
 * plays it to the end with the real rules engine, takes the model's chance every `every` effective steps, and
 * compares it with who won (each prediction counted for both players: A's chance, B's chance). Deterministic:
 * the matches come from mulberry32 with a fixed seed.
 * Used by `npm run calibrate:odds` (bench/calibrate-odds.ts) and tests/rules/win-probability-calibration.test.ts.
 */
import { applyStep, newMatch, statsOf, view, type Match } from '../shared/engine';
import { mulberry32 } from '../shared/prng';
import { plausibleStep } from '../shared/simulate';
import { whatItTakes, type OddsPrior } from '../shared/win-probability';
import { parseSetup } from '../server/protocol/setup-schemas';

/** How to simulate: how many matches, the race, the skill range, how often a prediction is taken, the seed. */
export interface CalibrationPlan {
  matches: number;
  race: number;
  skill: readonly [number, number];
  every: number;
  seed: number;
  /** Simulated finishes per prediction (shared/win-probability.ts `samples`). */
  samples: number;
  prior?: OddsPrior;
}

/** One of the ten bins of predicted chance: [lo, lo + 0.1). */
export interface CalibrationBin {
  lo: number;
  /** Predictions in the bin (each prediction of a match is counted twice: for A and for B). */
  n: number;
  /** Mean predicted chance of the player. */
  predicted: number;
  /** Share of those predictions whose player won the match. */
  observed: number;
}

/** The calibration table and its summary figures. */
export interface Calibration {
  bins: CalibrationBin[];
  predictions: number;
  matches: number;
  /** Mean squared error of the predictions (Brier score; 0.25 = a coin's). */
  brier: number;
  /** Expected calibration error: Σ n·|predicted − observed| / N. */
  ece: number;
}

/** Simulate `plan.matches` matches and bin the predictions. */
export function calibrate(plan: CalibrationPlan): Calibration {
  const sums = Array.from({ length: 10 }, () => ({ n: 0, p: 0, won: 0 }));
  let brier = 0;
  let predictions = 0;
  let played = 0;
  for (let i = 0; i < plan.matches; i++) {
    const rand = mulberry32(plan.seed * 100_003 + i);
    const skill = [plan.skill[0] + rand() * (plan.skill[1] - plan.skill[0]), plan.skill[0] + rand() * (plan.skill[1] - plan.skill[0])] as const;
    const setup = parseSetup({ discipline: '14-1', players: ['A', 'B'], targets: [plan.race, plan.race], breaker: rand() < 0.5 ? 'A' : 'B' });
    let m: Match = newMatch(setup);
    const taken: number[] = [];
    for (let steps = 0; steps < 20_000; steps++) {
      const s = view(m);
      if (s.winner) break;
      if (s.steps % plan.every === 0) {
        const players = statsOf(m).players;
        const w = whatItTakes(s, setup, { stats: players, samples: plan.samples, ...(plan.prior ? { prior: plan.prior } : {}) });
        if (w.discipline === '14-1') taken.push(w.chance[0]);
      }
      const r = applyStep(m, plausibleStep(m, rand, skill[s.turn === 'A' ? 0 : 1]));
      if (r.ok) m = r.match;
    }
    const winner = view(m).winner;
    if (!winner) continue;
    played++;
    const won = winner === 'A' ? 1 : 0;
    // Each prediction counts for both players (A's chance and whether A won, B's and whether B won): the table
    // is symmetric and does not depend on which player is called A.
    for (const pa of taken) {
      for (const [p, w] of [
        [pa, won],
        [1 - pa, 1 - won],
      ] as const) {
        const bin = sums[Math.min(9, Math.floor(p * 10))]!;
        bin.n++;
        bin.p += p;
        bin.won += w;
        brier += (p - w) ** 2;
        predictions++;
      }
    }
  }
  const bins = sums.map((b, k) => ({ lo: k / 10, n: b.n, predicted: b.n ? b.p / b.n : 0, observed: b.n ? b.won / b.n : 0 }));
  const ece = bins.reduce((e, b) => e + b.n * Math.abs(b.predicted - b.observed), 0) / Math.max(1, predictions);
  return { bins, predictions, matches: played, brier: brier / Math.max(1, predictions), ece };
}

/** The table as Markdown: bin, predictions, mean predicted, observed. */
export function calibrationTable(c: Calibration): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
  const rows = c.bins.map(
    (b) => `| ${b.lo.toFixed(1)}–${(b.lo + 0.1).toFixed(1)} | ${b.n} | ${b.n ? pct(b.predicted) : '–'} | ${b.n ? pct(b.observed) : '–'} |`,
  );
  return [
    '| predicted bin | predictions | mean predicted | observed win rate |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
    `${c.matches} matches, ${c.predictions} predictions; Brier ${c.brier.toFixed(4)}, expected calibration error ${(c.ece * 100).toFixed(2)} points`,
  ].join('\n');
}
