/**
 * `npm run bench` — fan-out benchmark of the match server (issues 3 and 11).
 *
 * For N viewers (1,000, 5,000 and 10,000 by default) split evenly over two cuecast instances that share the
 * Redis at REDIS_URL (default redis://127.0.0.1:6379; keys under a throw-away prefix, deleted afterwards), one
 * scorer records plausible steps (shared/simulate: innings, safeties, fouls, re-racks, 2 % undos) of a long
 * 14-1 match: BENCH_START steps are recorded before the viewers join (they subscribe to a match with a long
 * score sheet), then 10 warm-up and BENCH_SHOTS measured shots, so the last measured shot is step 10,000.
 * Measured per shot: scorer emit → the LAST viewer has the push (p50/p99), the scorer's ack round trip (emit →
 * ack on its socket to instance 1), the bytes of each push (JSON), and each instance's memory per connected
 * viewer (after GC, marginal: from N/2 to N viewers): heap, heap + external, RSS.
 * Baseline in the same run: two bare Socket.IO servers (no Redis, no rules, same topology and viewer split)
 * to which the scorer sends, for each shot, the very push cuecast sent for that shot; each acks, then
 * broadcasts it in the next check phase, as cuecast does. Viewers run in child processes, one per instance,
 * so the server processes measure only their own memory.
 * Both set-ups run side by side and their shots alternate, so a busy (shared) machine affects both alike;
 * shots are sequential: the next is emitted BENCH_GAP_MS (default 5) ms after every viewer has the previous one.
 * Options (env): BENCH_VIEWERS (default 1000,5000,10000), BENCH_SHOTS (200), BENCH_START (10000 − 10 − shots),
 * BENCH_GAP_MS (5), REDIS_URL.
 */
import type { Socket } from 'socket.io-client';
import { LONG_SETUP, plausibleSteps } from '../tests/helpers/server';
import { startChild, type BenchChild } from './child';
import { connect, deleteKeys, latest, pct } from './common';
import { PROTOCOL_VERSION, type StatePush } from '../shared/protocol/wire';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SIZES = (process.env.BENCH_VIEWERS ?? '1000,5000,10000').split(',').map(Number);
const SHOTS = Number(process.env.BENCH_SHOTS ?? 200);
const WARMUP = 10;
/** Steps recorded before the viewers join. */
const START = Number(process.env.BENCH_START ?? Math.max(0, 10_000 - WARMUP - SHOTS));
/** Pause after every viewer has a shot before the next shot (either set-up). */
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 5);
const SETUP = LONG_SETUP;
const steps = plausibleSteps(START + WARMUP + SHOTS, SETUP, { seed: 42, undoRate: 0.02 });

const now = () => process.hrtime.bigint();
const ms = (ns: bigint) => Number(ns) / 1e6;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

async function startServerChild(mode: 'cuecast' | 'bare', prefix: string) {
  const c = startChild('bench/fanout-server.ts', { BENCH_MODE: mode, BENCH_REDIS_URL: REDIS_URL, BENCH_PREFIX: prefix }, ['--expose-gc']);
  const { url } = await c.next<{ url: string }>('listening', () => true, 30_000);
  return { c, url };
}

interface Memory {
  heapUsed: number;
  external: number;
  rss: number;
}
let heapSeq = 0;
async function memory(c: BenchChild): Promise<Memory> {
  const id = ++heapSeq;
  c.send({ type: 'heap', id });
  return c.next<Memory>('heap', (m) => m.id === id);
}

interface Result {
  viewers: number;
  mode: 'cuecast' | 'bare';
  fanout: number[];
  ack: number[];
  /** Marginal bytes per viewer (after GC): heap, heap + external, RSS. */
  perViewer: Memory;
  /** JSON bytes of each measured push. */
  bytes: number[];
}

/** One topology: two server children and one viewer child per server (N/2 viewers each). */
interface Topology {
  mode: 'cuecast' | 'bare';
  perViewer: Memory;
  /** Record (cuecast) or broadcast (bare) shot `i`; resolves with its fan-out and ack times in ms and the push. */
  shoot(i: number): Promise<{ fanout: number; ack: number; push: StatePush }>;
  stop(): Promise<void>;
}

async function setUp(mode: 'cuecast' | 'bare', viewers: number, payload: (i: number) => StatePush): Promise<Topology> {
  const prefix = `cuecast-bench:${process.pid}:${mode}:${viewers}:`;
  const servers = [await startServerChild(mode, prefix), await startServerChild(mode, prefix)];
  const viewerProcs: BenchChild[] = [];
  const sockets: Socket[] = [];
  const stop = async () => {
    for (const s of sockets) s.close();
    await Promise.all(viewerProcs.map((v) => v.stop()));
    await Promise.all(servers.map((s) => s.c.stop()));
    if (mode === 'cuecast') await deleteKeys(REDIS_URL, prefix);
  };
  try {
    let matchId = 'bench';
    let token: string | undefined;
    if (mode === 'cuecast') {
      const res = await fetch(`${servers[0]!.url}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(SETUP),
      });
      const body = (await res.json()) as { id: string; scorerToken: string };
      matchId = body.id;
      token = body.scorerToken;
      // The long match the viewers join: START steps recorded before anyone watches.
      const pre = await connect(servers[0]!.url, token);
      for (let i = 0; i < START; i++) {
        const a = await pre.timeout(30_000).emitWithAck('record', { protocol: PROTOCOL_VERSION, matchId, stepId: `b${i}`, expectedVersion: i, step: steps[i] });
        if (!a.ok) throw new Error(`record refused: ${JSON.stringify(a.error)}`);
      }
      pre.close();
    }
    // Heap per viewer is the marginal cost: heap after GC with N/2 viewers connected, then with N, over the
    // N/2 added — so one-time costs (JIT code, caches warmed by the first connections) are not counted.
    const quarter = [Math.floor(viewers / 4), Math.floor(viewers / 2) - Math.floor(viewers / 4)];
    const rest = [Math.floor(viewers / 2) - quarter[0]!, viewers - Math.floor(viewers / 2) - quarter[1]!];
    const connectViewers = async (counts: number[]) => {
      for (const [i, s] of servers.entries()) {
        if (!viewerProcs[i]) viewerProcs.push(startChild('bench/fanout-viewers.ts', {}, ['--max-old-space-size=2048']));
        viewerProcs[i]!.send({ type: 'start', url: s.url, count: counts[i], matchId });
      }
      await Promise.all(viewerProcs.map((v) => v.next('ready', () => true, 300_000)));
      await sleep(500);
    };
    await connectViewers(quarter);
    const mem0 = await Promise.all(servers.map((s) => memory(s.c)));
    await connectViewers(rest);
    const mem1 = await Promise.all(servers.map((s) => memory(s.c)));
    const added = rest[0]! + rest[1]!;
    const delta = (f: (m: Memory) => number) => (f(mem1[0]!) - f(mem0[0]!) + f(mem1[1]!) - f(mem0[1]!)) / added;
    const perViewer: Memory = { heapUsed: delta((m) => m.heapUsed), external: delta((m) => m.heapUsed + m.external), rss: delta((m) => m.rss) };

    // The scorer: one socket to instance 1 (cuecast), or one to each bare server.
    const scorers = mode === 'cuecast' ? [await connect(servers[0]!.url, token)] : await Promise.all(servers.map((s) => connect(s.url)));
    sockets.push(...scorers);
    const shoot = async (i: number) => {
      const n = START + i;
      const version = n + 1;
      const done = viewerProcs.map((v) => v.next<{ at: string }>('done', (m) => m.version === version, 60_000));
      let push: StatePush;
      const t0 = now();
      let ack: number;
      if (mode === 'cuecast') {
        const a = await scorers[0]!
          .timeout(30_000)
          .emitWithAck('record', { protocol: PROTOCOL_VERSION, matchId, stepId: `b${n}`, expectedVersion: n, step: steps[n] });
        ack = ms(now() - t0);
        if (!a.ok) throw new Error(`record refused: ${JSON.stringify(a.error)}`);
        // The full room's push is the ack's version, state and statistics delta with the step.
        push = { matchId, version: a.version, state: a.state, step: steps[n]!, stats: a.stats };
      } else {
        push = { ...payload(i), matchId, version };
        // Both servers get it at once; the ack is timed on the socket to server 1, as cuecast's is.
        const [first, second] = scorers.map((s) => s.timeout(30_000).emitWithAck('bcast', push));
        await first;
        ack = ms(now() - t0);
        await second;
      }
      const ats = await Promise.all(done);
      const last = latest(ats);
      return { fanout: ms(last - t0), ack, push };
    };
    return { mode, perViewer, shoot, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Both topologies up at once; shots alternate cuecast / bare so both see the same machine load (the
 * machine may be shared), each shot starting GAP_MS after every viewer has the previous one.
 */
async function compare(viewers: number): Promise<Result[]> {
  console.error(`[bench] ${viewers} viewers: starting 2 cuecast instances + Redis (recording ${START} steps first) and 2 bare Socket.IO servers …`);
  const pushes: StatePush[] = [];
  const cue = await setUp('cuecast', viewers, () => {
    throw new Error('cuecast makes its own pushes');
  });
  let bare: Topology | null = null;
  try {
    bare = await setUp('bare', viewers, (i) => pushes[i]!);
    const results: Result[] = [cue, bare].map((t) => ({ viewers, mode: t.mode, fanout: [], ack: [], perViewer: t.perViewer, bytes: [] }));
    console.error(`[bench] ${viewers} viewers: ${WARMUP} warm-up + ${SHOTS} measured shots each …`);
    for (let i = 0; i < WARMUP + SHOTS; i++) {
      for (const [k, t] of [cue, bare].entries()) {
        const r = await t.shoot(i);
        if (k === 0) pushes[i] = r.push;
        if (i >= WARMUP) {
          results[k]!.fanout.push(r.fanout);
          results[k]!.ack.push(r.ack);
          results[k]!.bytes.push(Buffer.byteLength(JSON.stringify(r.push)));
        }
        await sleep(GAP_MS);
      }
    }
    return results;
  } finally {
    await Promise.all([cue.stop(), bare?.stop()]);
  }
}

const results: Result[] = [];
for (const n of SIZES) {
  results.push(...(await compare(n)));
  await sleep(1000);
}

const f = (x: number) => x.toFixed(2);
const kb = (x: number) => (x / 1024).toFixed(1);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `\nFan-out: one scorer, ${SHOTS} plausible 14-1 shots at steps ${START + WARMUP + 1}–${START + WARMUP + SHOTS}, viewers split over two instances (node ${process.version}, ${(await import('node:os')).cpus().length} cores)\n`,
);
console.log(
  '| viewers | server | push bytes mean / max | emit→last viewer p50 ms | p99 ms | ratio p50 | ratio p99 | scorer ack p50 ms | ack p99 ms | heap / viewer KB | heap+external / viewer KB | RSS / viewer KB |',
);
console.log('|--------:|--------|------:|------:|------:|------:|------:|------:|------:|------:|------:|------:|');
for (const n of SIZES) {
  const cue = results.find((r) => r.viewers === n && r.mode === 'cuecast')!;
  const bare = results.find((r) => r.viewers === n && r.mode === 'bare')!;
  for (const r of [cue, bare]) {
    const isCue = r === cue;
    console.log(
      `| ${n} | ${isCue ? 'cuecast (Redis log + adapter)' : 'bare Socket.IO broadcast'} | ${mean(r.bytes).toFixed(0)} / ${Math.max(...r.bytes)} | ${f(pct(r.fanout, 0.5))} | ${f(pct(r.fanout, 0.99))} | ${isCue ? f(pct(cue.fanout, 0.5) / pct(bare.fanout, 0.5)) : ''} | ${isCue ? f(pct(cue.fanout, 0.99) / pct(bare.fanout, 0.99)) : ''} | ${f(pct(r.ack, 0.5))} | ${f(pct(r.ack, 0.99))} | ${kb(r.perViewer.heapUsed)} | ${kb(r.perViewer.external)} | ${kb(r.perViewer.rss)} |`,
    );
  }
}
console.log(
  '\nTargets: ratio ≤ 1.15 at every size; push ≤ 4 KB at step 10,000; scorer ack p99 ≤ 5 ms. Heap per loaded match and per-step work: npm run bench:match.',
);
process.exit(0);
