/**
 * `npm run bench:rules`: replay a 10,000-step match of each discipline (a stored log, as the server does on
 * load) and record the same steps one at a time (as the server does live). Reports the median of several
 * runs, and the replay's CPU time (steadier than wall time on a shared machine). Target: replay ≤ 5 ms per
 * 10,000 steps on a 2-core machine; recording one step never replays the log.
 * The npm script runs Node with `--max-semi-space-size=64`: a replay keeps every state for undo, so with the
 * default young generation most of the time goes to scavenges copying those survivors.
 */
import { applyStep, newMatch, replay, type Step } from '../shared/index';
import { parseSetup } from '../server/protocol/setup-schemas';
import { draftOf } from '../shared/rules/core';
import { plausibleStep, seededRandom } from '../shared/simulate';
import { matchHash } from '../server/matches/state-hash';
import { statsDelta } from '../shared/stats';
import { createHash } from 'node:crypto';

const STEPS = 10_000;
const RUNS = 25;

/** Build a legal log of exactly STEPS steps; matches that end are undone a little so play continues. */
function buildLog(setupInput: unknown, seed: number) {
  const setup = parseSetup(setupInput);
  const rand = seededRandom(seed);
  let m = newMatch(setup);
  const log: Step[] = [];
  while (log.length < STEPS) {
    const step: Step = m.core.winner || (m.depth > 0 && rand() < 0.02) ? { undo: true } : plausibleStep(m, rand);
    const r = applyStep(m, step);
    if (!r.ok) throw new Error(`generator produced an illegal step: ${r.error.message}`);
    m = r.match;
    log.push(step);
  }
  return { setup, log };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** CPU time of this process in ms (user + system): unlike wall time, it leaves out the time other work held the cores. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function bench(name: string, setupInput: unknown) {
  const { setup, log } = buildLog(setupInput, 42);
  for (let i = 0; i < 5; i++) replay(setup, log); // warm-up
  const replays: number[] = [];
  const replaysCpu: number[] = [];
  const perStep: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c = cpuMs();
    let t = performance.now();
    replay(setup, log);
    replays.push(performance.now() - t);
    replaysCpu.push(cpuMs() - c);
    // live recording: one applyStep per step on the current match (no replay)
    let m = newMatch(setup);
    t = performance.now();
    for (const s of log) {
      const r = applyStep(m, s);
      if (r.ok) m = r.match;
    }
    perStep.push(((performance.now() - t) / log.length) * 1000);
  }
  return { name, steps: log.length, replayMs: median(replays), replayCpuMs: median(replaysCpu), stepUs: median(perStep), ...hashes(setup, log) };
}

/**
 * The decisions, as hashes that must not change when the engine is made faster: `replay` is the state hash of
 * the replayed match (server/matches/state-hash.ts: core, score sheet, rack totals, tallies, recent outcomes);
 * `trail` is a SHA-256 of every statistics delta a server would push while recording the log step by step
 * (undos included), so a change in any intermediate version shows too. Computed outside the timed runs.
 */
function hashes(setup: ReturnType<typeof parseSetup>, log: readonly Step[]): { replayHash: string; trailHash: string } {
  const trail = createHash('sha256');
  let m = newMatch(setup);
  for (let v = 0; v < log.length; v++) {
    const r = applyStep(m, log[v]!);
    if (!r.ok) throw new Error(`log step ${v} refused: ${r.error.message}`);
    trail.update(JSON.stringify(statsDelta(setup, v, m.stats, r.match.stats, r.match.core)));
    m = r.match;
  }
  const replayHash = matchHash(replay(setup, log));
  if (matchHash(m) !== replayHash) throw new Error('replay and step-by-step recording disagree');
  return { replayHash, trailHash: trail.digest('hex') };
}

/**
 * Machine reference for ratios (this shared 2-core VM varies ±25% run to run): the time to make 10,000
 * field-by-field copies of the engine's state with two new score pairs — the least any immutable replay
 * that keeps undo history must do.
 */
function floorMs(): number {
  const setup = parseSetup({ discipline: '14-1', players: ['A', 'B'] });
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let c = newMatch(setup).core;
    const keep: unknown[] = [];
    const t = performance.now();
    for (let i = 0; i < STEPS; i++) {
      const d = draftOf(c);
      d.score = [d.score[0] + 1, d.score[1]];
      d.innings = [d.innings[0], d.innings[1] + 1];
      keep.push(c);
      c = d;
    }
    times.push(performance.now() - t);
  }
  return median(times);
}

const floor = floorMs();
const rows = [
  bench('14-1 (NBA, race to 10000)', { discipline: '14-1', ruleset: 'nba', players: ['A', 'B'], targets: [10000, 10000] }),
  bench('Rotation (race to 10000)', { discipline: 'rotation', players: ['A', 'B'], targets: [10000, 10000] }),
];
console.log(`replay of a ${STEPS}-step log, median of ${RUNS} runs (target ≤ 5 ms)`);
console.log('| discipline | steps | replay median (ms) | its CPU time (ms) | × state-copy floor | record one step, median (µs) | target met |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.steps} | ${r.replayMs.toFixed(2)} | ${r.replayCpuMs.toFixed(2)} | ${(r.replayMs / floor).toFixed(1)} | ${r.stepUs.toFixed(2)} | ${r.replayMs <= 5 ? 'yes' : 'NO'} |`,
  );
}
console.log(`state-copy floor (10,000 copies of the state, machine reference): ${floor.toFixed(2)} ms`);
for (const r of rows) console.log(`${r.name}: replay state hash ${r.replayHash}, statistics-delta trail ${r.trailHash}`);
