/**
 * `npm run bench:draw`: a 128-player double elimination (true double), every match played (issue 27 §8).
 * - the draw's state from all its results (`drawState` over the definition and every entry, then the ready
 *   list and the standings): median wall and CPU time of several runs; goal ≤ 5 ms;
 * - the push to the draw page per result: the JSON bytes of the `draw` push (shared/protocol/draw.ts `DrawPush`:
 *   the event, version, createdAt and `drawDelta` between the views before and after the result) as the server
 *   sends it to the draw's room, max and median; goal ≤ 8 KB; and the whole `subscribeDraw` answer's bytes (the
 *   view with 128 players' names, sent once, when a page subscribes or reloads);
 * - one result applied to the live state (`applyDrawEntry`, as the server does per result): median µs.
 */
import {
  applyDrawEntry,
  drawDelta,
  drawState,
  drawView,
  newDraw,
  readyMatches,
  standings,
  matchViews,
  type DrawDefinition,
  type DrawEntry,
  type DrawState,
} from '../shared/draw/index';
import type { DrawPage, DrawPush } from '../shared/protocol/draw';

const PLAYERS = 128;
const RUNS = 31;

const def: DrawDefinition = {
  format: 'double',
  players: Array.from({ length: PLAYERS }, (_, i) => ({ id: `p${i + 1}`, rating: 3000 - i })),
  seeding: { by: 'random', seed: 20261203 },
  races: { default: 100, sides: { L: 75 } },
  trueDouble: true,
};

/** Play the draw out: the ready match earliest first goes on, then its result (better seed wins 2 in 3). */
function playOut(): { entries: DrawEntry[]; deltas: number[]; applyUs: number[] } {
  let s = newDraw(def) as DrawState;
  const entries: DrawEntry[] = [];
  const deltas: number[] = [];
  const applyUs: number[] = [];
  let k = 0;
  for (;;) {
    const ready = readyMatches(s);
    if (ready.length === 0) break;
    const id = ready[0]!;
    const m = matchViews(s).find((v) => v.id === id)!;
    const slot = k++ % 3 === 2 ? 1 : 0;
    const e: DrawEntry = {
      t: 'result',
      match: id,
      winner: m.players[slot]!,
      kind: 'win',
      score: slot === 0 ? [100, 61] : [61, 100],
      innings: 23,
      highRun: [42, 17],
    };
    const before = drawView(s);
    const t = performance.now();
    const r = applyDrawEntry(s, e);
    applyUs.push((performance.now() - t) * 1000);
    if ('error' in r) throw new Error(r.error.message);
    s = r.state;
    const push: DrawPush = { eventId: 'ev_20261203_open', version: entries.length + 1, createdAt: 1_796_300_000_000, delta: drawDelta(before, drawView(s)) };
    deltas.push(Buffer.byteLength(JSON.stringify(push)));
    entries.push(e);
  }
  return { entries, deltas, applyUs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const { entries, deltas, applyUs } = playOut();
const rebuild = () => {
  const s = drawState(def, entries);
  if ('error' in s) throw new Error(s.error.message);
  readyMatches(s);
  standings(s);
  return s;
};
for (let i = 0; i < 10; i++) rebuild(); // warm-up
const wall: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const c = cpuMs();
  const t = performance.now();
  rebuild();
  wall.push(performance.now() - t);
  cpu.push(cpuMs() - c);
}
const answer: DrawPage & { ok: true } = {
  ok: true,
  eventId: 'ev_20261203_open',
  eventName: 'Cuecast Open 2026',
  version: entries.length,
  createdAt: 1_796_300_000_000,
  format: 'double',
  players: def.players.map((p, i) => ({ id: p.id, name: `Player Number ${i + 1} Longname`, short: `P${i + 1}`, country: 'DE', rating: p.rating! })),
  tables: Array.from({ length: 16 }, (_, i) => ({ id: `table-${i + 1}`, name: `Table ${i + 1}` })),
  draw: drawView(rebuild()),
};
const full = Buffer.byteLength(JSON.stringify(answer));
const kb = (b: number) => `${(b / 1024).toFixed(2)} KB`;
console.log(`draw: ${PLAYERS}-player double elimination (true double), ${entries.length} results`);
console.log(`  state from all results: median ${median(wall).toFixed(2)} ms wall, ${median(cpu).toFixed(2)} ms CPU (goal ≤ 5 ms)`);
console.log(`  one result applied live: median ${median(applyUs).toFixed(0)} µs`);
console.log(`  draw push per result (DrawPush): max ${kb(Math.max(...deltas))}, median ${kb(median(deltas))} (goal ≤ 8 KB)`);
console.log(`  whole draw (subscribeDraw answer, names included): ${kb(full)}`);
const ok = median(wall) <= 5 && Math.max(...deltas) <= 8 * 1024;
console.log(ok ? 'within the goals' : 'OVER A GOAL');
process.exitCode = ok ? 0 : 1;
