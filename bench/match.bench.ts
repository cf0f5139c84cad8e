/**
 * `npm run bench:match` — what one shot and one loaded match cost as a match grows (issue 11), on plausible
 * play (shared/simulate: innings, safeties, fouls, re-racks, 2 % undos) of 14-1:
 *
 * - per-step server work at step 1,000 and 10,000: `MatchService.record` over an in-memory store (decide,
 *   incremental statistics, public state, the append's arguments, the statistics delta), the fan-out's two
 *   pushes and the ack encoded as JSON (Socket.IO encodes a broadcast once), and the checkpoint every 200
 *   steps — everything but the network and Redis. Mean (amortized) and p50 / p99 of single steps. Beside it,
 *   the same step with the whole-history statistics and whole-sheet push of protocol 2 (the old cost);
 * - bytes at step 10,000: the full and scorebug pushes, the record ack, the subscribe ack (whole statistics);
 * - heap per loaded match (after a full GC) at 0, 1,000 and 10,000 steps, loaded from its checkpoint, beside
 *   the whole log and undo history kept in memory (the old way, with today's engine); and the time to load
 *   one from its checkpoint (`npm run bench:rules` times a replay of the whole log).
 * Run with --expose-gc (the npm script does).
 */
import { pino } from 'pino';
import { applyStep, replay, view, type Step } from '../shared/index';
import { parseSetup } from '../server/protocol/setup-schemas';
import { LiveCache } from '../server/matches/live-cache';
import { MatchService, summaryOf } from '../server/matches/service';
import type { Pushes } from '../server/matches/live-window';
import { plausibleSteps } from '../tests/helpers/server';
import { referenceStats } from '../tests/helpers/stats-reference';
import { MemoryStore } from '../server/storage/memory-store';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const log = pino({ level: 'silent' });
const AT = [1_000, 10_000];
const MEASURED = 500;
/** 14-1 to 10,000 (the largest target): no winner within 10,500 plausible steps. (A Rotation race ends long before.) */
const SETUPS = {
  '14-1': { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [10_000, 10_000] },
} as const;

const bytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const heapAfterGc = () => {
  for (let i = 0; i < 3; i++) gc!();
  return process.memoryUsage().heapUsed;
};

/** A service over a fresh in-memory store that encodes each version's pushes as the fan-out would. */
function service() {
  const store = new MemoryStore();
  let last: Pushes | null = null;
  const svc = new MatchService({
    store,
    log,
    shared: false,
    onAppended: (p) => {
      last = p;
      JSON.stringify(p.full);
      JSON.stringify(p.scorebug);
    },
  });
  return { store, svc, pushes: () => last! };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

/**
 * Record `steps` from version `from`, one at a time, with the fan-out's encoding; returns each step's wall
 * ms and the process CPU ms per step over them all (CPU time is not inflated when a busy machine preempts us).
 */
async function recordTimed(svc: MatchService, id: string, token: string, steps: readonly Step[], from: number): Promise<{ times: number[]; cpuMs: number }> {
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (const [i, step] of steps.entries()) {
    const t = performance.now();
    const r = await svc.record(id, token, { stepId: `e${from + i}`, expectedVersion: from + i, step });
    if (!r.ok) throw new Error(`step ${from + i + 1} refused: ${r.error.message}`);
    JSON.stringify({ ok: true, matchId: r.matchId, version: r.version, state: r.state, stats: r.stats }); // the ack
    await tick(); // the pushes leave in the next check phase (a due checkpoint is built before its append: in this step's time)
    times.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  return { times, cpuMs: (cpu.user + cpu.system) / 1000 / Math.max(1, steps.length) };
}

/** Protocol 2's per-step work at the match `steps` lead to: decide, whole-history statistics, whole push encoded. */
function wholeHistoryStepMs(setupInput: unknown, steps: readonly Step[], extra: readonly Step[]): number {
  let m = replay(parseSetup(setupInput), steps);
  const t = performance.now();
  for (const [i, step] of extra.entries()) {
    const r = applyStep(m, step);
    if (!r.ok) throw new Error(r.error.message);
    m = r.match;
    const state = view(m);
    JSON.stringify({ summary: summaryOf('m', state, steps.length + i + 1, 0), state });
    JSON.stringify({ matchId: 'm', version: steps.length + i + 1, state, stats: referenceStats(m), step });
  }
  return (performance.now() - t) / extra.length;
}

console.error('[bench:match] warm-up …');
{
  const { svc } = service();
  const m = await svc.create(SETUPS['14-1']);
  await recordTimed(svc, m.id, m.scorerToken, plausibleSteps(3000, SETUPS['14-1'], { seed: 1, undoRate: 0.02 }), 0);
}
console.error('[bench:match] per-step cost …');
const rows: string[] = [];
const sizes: string[] = [];
for (const [name, setup] of Object.entries(SETUPS)) {
  const all = plausibleSteps(AT[AT.length - 1]! + MEASURED, setup, { seed: 42, undoRate: 0.02 });
  const { svc, pushes } = service();
  const m = await svc.create(setup);
  let at = 0;
  for (const n of AT) {
    await recordTimed(svc, m.id, m.scorerToken, all.slice(at, n), at);
    if (n === 10_000) {
      const cur = (await svc.current(m.id))!;
      const p = pushes();
      const ack = { ok: true, matchId: m.id, version: p.full.version, state: p.full.state, stats: p.full.stats };
      const subscribe = { ok: true, detail: 'full', setup: cur.setup, ...cur.snapshot };
      const old = { ...p.scorebug, stats: cur.snapshot.stats };
      sizes.push(
        `| ${name} | ${bytes(p.full)} | ${bytes(p.scorebug)} | ${bytes(ack)} | ${bytes(subscribe)} | ${bytes(old)} | ${cur.snapshot.stats.sheet.length} |`,
      );
    }
    const { times, cpuMs } = await recordTimed(svc, m.id, m.scorerToken, all.slice(n, n + MEASURED), n);
    at = n + MEASURED;
    const wall = times.reduce((a, b) => a + b, 0) / times.length;
    const old = wholeHistoryStepMs(setup, all.slice(0, n), all.slice(n, n + 20));
    const us = (x: number) => (x * 1000).toFixed(0);
    rows.push(
      `| ${name} | ${n} | ${us(cpuMs)} | ${us(wall)} | ${us(pct(times, 0.5))} | ${us(pct(times, 0.99))} | ${cpuMs <= 0.2 ? 'yes' : 'NO'} | ${us(old)} |`,
    );
  }
}

console.error('[bench:match] heap per loaded match …');
const heapRows: string[] = [];
const K = 20;
for (const n of [0, 1_000, 10_000]) {
  const setup = SETUPS['14-1'];
  const steps = plausibleSteps(n, setup, { seed: 7, undoRate: 0.02 });
  const { store, svc } = service();
  const ids: string[] = [];
  for (let k = 0; k < K; k++) {
    const m = await svc.create(setup);
    for (const [i, step] of steps.entries()) {
      const r = await svc.record(m.id, m.scorerToken, { stepId: `e${i}`, expectedVersion: i, step });
      if (!r.ok) throw new Error(r.error.message);
    }
    ids.push(m.id);
  }
  await tick();
  await tick();
  // Kept by the service that recorded them (windows full), measured by dropping them from its cache.
  const hr0 = heapAfterGc();
  svc.evictIdle(-1, () => false);
  const hr1 = heapAfterGc();
  // Loaded from the checkpoint by a fresh cache (as after a restart or on another instance).
  const cache = new LiveCache({ store, shared: false });
  const h0 = heapAfterGc();
  const t = performance.now();
  for (const id of ids) await cache.get(id);
  const loadMs = (performance.now() - t) / K;
  const h1 = heapAfterGc();
  // The old way, for comparison: the whole log and the whole undo history in memory.
  const kept: unknown[] = [];
  const h2 = heapAfterGc();
  for (let k = 0; k < K; k++) {
    const logged = (await store.load(ids[k]!))!.steps;
    kept.push({
      match: replay(
        parseSetup(setup),
        logged.map((e) => e.step),
      ),
      events: logged,
      ids: new Map(logged.map((e, i) => [e.stepId, i + 1])),
    });
  }
  const h3 = heapAfterGc();
  heapRows.push(
    `| ${n} | ${((hr0 - hr1) / K / 1024).toFixed(1)} | ${((h1 - h0) / K / 1024).toFixed(1)} | ${((h3 - h2) / K / 1024).toFixed(1)} | ${loadMs.toFixed(2)} |`,
  );
  if (kept.length !== K || !cache.isLoaded(ids[0]!)) throw new Error('matches not held');
}

console.log(`\nPer-step server work (record + pushes + ack encoded, no I/O), ${MEASURED} plausible steps from the given step, node ${process.version}`);
console.log(
  '| discipline | at step | CPU µs / step (amortized) | wall µs / step (mean) | wall p50 µs | wall p99 µs | CPU ≤ 0.2 ms | whole-history stats + whole push (protocol 2), wall µs |',
);
console.log('|---|---:|---:|---:|---:|---:|---|---:|');
for (const r of rows) console.log(r);
console.log('\nBytes at step 10,000 (JSON)');
console.log('| discipline | full push | scorebug push | record ack | subscribe ack (whole sheet) | protocol 2 push | sheet rows |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of sizes) console.log(r);
console.log(`\nHeap per loaded 14-1 match (after GC, mean of ${K}); load time per match`);
console.log(
  '| steps | recorded here (windows full) KB | loaded from checkpoint KB | whole log + whole undo history kept KB (the old way) | load from checkpoint ms |',
);
console.log('|---:|---:|---:|---:|---:|');
for (const r of heapRows) console.log(r);
console.log('\nTargets: per-step work ≤ 0.2 ms at step 10,000; push ≤ 4 KB at step 10,000.');
process.exit(0);
