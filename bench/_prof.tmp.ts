import { applyStep, newMatch, parseSetup, replay, type Step } from '../shared/index';
import { plausibleStep, seededRandom } from '../shared/simulate';
function buildLog(setupInput: unknown, seed: number) {
  const setup = parseSetup(setupInput);
  const rand = seededRandom(seed);
  let m = newMatch(setup);
  const log: Step[] = [];
  while (log.length < 10000) {
    const step: Step = m.core.winner || (m.depth > 0 && rand() < 0.02) ? { undo: true } : plausibleStep(m, rand);
    const r = applyStep(m, step);
    if (!r.ok) throw new Error(r.error.message);
    m = r.match; log.push(step);
  }
  return { setup, log };
}
const which = process.argv[2] ?? 'rotation';
const { setup, log } = buildLog(which === '14-1' ? { discipline: '14-1', ruleset: 'nba', players: ['A', 'B'], targets: [10000, 10000] } : { discipline: 'rotation', players: ['A', 'B'], targets: [10000, 10000] }, 42);
const t = performance.now();
for (let i = 0; i < 200; i++) replay(setup, log);
console.log(which, ((performance.now() - t) / 200).toFixed(2), 'ms/replay');
