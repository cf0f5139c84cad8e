/**
 * `npm run calibrate:odds [-- --matches N --race R --seed S]`: the 14-1 win chance's calibration table on
 * simulated matches of known skill (bench/odds-calibration.ts), printed as Markdown (the closing note's table).
 */
import { calibrate, calibrationTable } from './odds-calibration';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name}: must be a positive number (got ${process.argv[i + 1]})`);
  return v;
};

const plan = {
  matches: arg('matches', 2000),
  race: arg('race', 100),
  skill: [0.55, 0.85] as const,
  every: arg('every', 10),
  seed: arg('seed', 1),
  samples: arg('samples', 500),
};
const t0 = performance.now();
const c = calibrate(plan);
console.log(`14-1 race to ${plan.race}, skills ${plan.skill.join('–')} per shot, a prediction every ${plan.every} steps, seed ${plan.seed}\n`);
console.log(calibrationTable(c));
console.log(`\n(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
