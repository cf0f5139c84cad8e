/**
 * `npm run bench` — fan-out benchmark of the match server (issue 3).
 *
 * For N viewers (1,000 and 5,000) split evenly over two cuecast instances that share the Redis at REDIS_URL
 * (default redis://127.0.0.1:6379; keys under a throw-away prefix, deleted afterwards), one scorer records
 * 200 shots (after 10 warm-up shots). Measured per shot: scorer emit → the LAST viewer has the push
 * (p50/p99), the scorer's ack round trip, and each instance's heap growth per connected viewer (after GC,
 * marginal: from N/2 to N viewers).
 * Baseline in the same run: two bare Socket.IO servers (no Redis, no rules, same topology and viewer split)
 * broadcasting the same message (the latest cuecast push) that the scorer sends to both. Viewers run in child processes,
 * one per instance, so the server processes measure only their own heap.
 * Both set-ups run side by side and their shots alternate, so a busy (shared) machine affects both alike;
 * shots are sequential: the next is emitted BENCH_GAP_MS (default 5) ms after every viewer has the previous one.
 * Options (env): BENCH_VIEWERS (default 1000,5000), BENCH_SHOTS (200), BENCH_GAP_MS (5), REDIS_URL.
 */
import { io, type Socket } from 'socket.io-client';
import { createClient } from 'redis';
import { legalSteps } from '../tests/helpers/server';
import { startChild, type BenchChild } from './child';
import { PROTOCOL_VERSION } from '../shared/protocol/wire';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SIZES = (process.env.BENCH_VIEWERS ?? '1000,5000').split(',').map(Number);
const SHOTS = Number(process.env.BENCH_SHOTS ?? 200);
const WARMUP = 10;
/** Pause after every viewer has a shot before the next shot (either set-up). */
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 5);
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [1000, 1000] };
const steps = legalSteps(WARMUP + SHOTS, SETUP);

const now = () => process.hrtime.bigint();
const ms = (ns: bigint) => Number(ns) / 1e6;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));


const child = startChild;

async function startServerChild(mode: 'cuecast' | 'bare', prefix: string) {
  const c = child('bench/fanout-server.ts', { BENCH_MODE: mode, BENCH_REDIS_URL: REDIS_URL, BENCH_PREFIX: prefix }, ['--expose-gc']);
  const { url } = await c.next<{ url: string }>('listening', () => true, 30_000);
  return { c, url };
}

let heapSeq = 0;
async function heap(c: BenchChild): Promise<number> {
  const id = ++heapSeq;
  c.send({ type: 'heap', id });
  return (await c.next<{ heapUsed: number }>('heap', (m) => m.id === id)).heapUsed;
}

function connect(url: string, token?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = io(url, { transports: ['websocket'], forceNew: true, auth: token ? { token } : {} });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
}

interface Result {
  viewers: number;
  mode: 'cuecast' | 'bare';
  fanout: number[];
  ack: number[];
  heapPerViewer: number;
  messageBytes: number;
}

/** One topology: two server children and one viewer child per server (N/2 viewers each). */
interface Topology {
  mode: 'cuecast' | 'bare';
  heapPerViewer: number;
  /** Record (cuecast) or broadcast (bare) shot `i`; resolves with its fan-out and ack times in ms. */
  shoot(i: number): Promise<{ fanout: number; ack: number }>;
  /** The last message pushed (cuecast: built from the last ack). */
  lastMessage(): Record<string, unknown>;
  stop(): Promise<void>;
}

async function setUp(mode: 'cuecast' | 'bare', viewers: number, payload: () => Record<string, unknown>): Promise<Topology> {
  const prefix = `cuecast-bench:${process.pid}:${mode}:${viewers}:`;
  const servers = [await startServerChild(mode, prefix), await startServerChild(mode, prefix)];
  const viewerProcs: BenchChild[] = [];
  const sockets: Socket[] = [];
  const stop = async () => {
    for (const s of sockets) s.close();
    await Promise.all(viewerProcs.map((v) => v.stop()));
    await Promise.all(servers.map((s) => s.c.stop()));
    if (mode === 'cuecast') {
      const r = createClient({ url: REDIS_URL });
      r.on('error', () => undefined);
      await r.connect();
      for await (const keys of r.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length) await r.del(keys);
      await r.close();
    }
  };
  try {
    let matchId = 'bench';
    let token: string | undefined;
    if (mode === 'cuecast') {
      const res = await fetch(`${servers[0]!.url}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SETUP) });
      const body = (await res.json()) as { id: string; scorerToken: string };
      matchId = body.id;
      token = body.scorerToken;
    }
    // Heap per viewer is the marginal cost: heap after GC with N/2 viewers connected, then with N, over the
    // N/2 added — so one-time costs (JIT code, caches warmed by the first connections) are not counted.
    const quarter = [Math.floor(viewers / 4), Math.floor(viewers / 2) - Math.floor(viewers / 4)];
    const rest = [Math.floor(viewers / 2) - quarter[0]!, viewers - Math.floor(viewers / 2) - quarter[1]!];
    const connectViewers = async (counts: number[]) => {
      for (const [i, s] of servers.entries()) {
        if (!viewerProcs[i]) viewerProcs.push(child('bench/fanout-viewers.ts', {}, ['--max-old-space-size=2048']));
        viewerProcs[i]!.send({ type: 'start', url: s.url, count: counts[i], matchId });
      }
      await Promise.all(viewerProcs.map((v) => v.next('ready', () => true, 300_000)));
      await sleep(500);
    };
    await connectViewers(quarter);
    const heap0 = await Promise.all(servers.map((s) => heap(s.c)));
    await connectViewers(rest);
    const heap1 = await Promise.all(servers.map((s) => heap(s.c)));
    const heapPerViewer = (heap1[0]! - heap0[0]! + (heap1[1]! - heap0[1]!)) / (rest[0]! + rest[1]!);

    // The scorer: one socket to instance 1 (cuecast), or one to each bare server.
    const scorers = mode === 'cuecast' ? [await connect(servers[0]!.url, token)] : await Promise.all(servers.map((s) => connect(s.url)));
    sockets.push(...scorers);
    let lastAck: Record<string, unknown> = {};
    let lastStep: unknown = null;
    const shoot = async (i: number) => {
      const version = i + 1;
      const done = viewerProcs.map((v) => v.next<{ at: string }>('done', (m) => m.version === version, 60_000));
      const t0 = now();
      let acked: Promise<unknown>;
      if (mode === 'cuecast') {
        lastStep = steps[i];
        acked = scorers[0]!.timeout(30_000).emitWithAck('record', { protocol: PROTOCOL_VERSION, matchId, eventId: `b${i}`, expectedVersion: i, step: steps[i] }).then((a: any) => {
          if (!a.ok) throw new Error(`record refused: ${JSON.stringify(a.error)}`);
          lastAck = a;
        });
      } else {
        const msg = { ...payload(), matchId, version };
        acked = Promise.all(scorers.map((s) => s.timeout(30_000).emitWithAck('bcast', msg)));
      }
      const ack = await acked.then(() => ms(now() - t0));
      const ats = await Promise.all(done);
      const last = ats.map((d) => BigInt(d.at)).reduce((a, b) => (a > b ? a : b));
      return { fanout: ms(last - t0), ack };
    };
    const lastMessage = () => {
      const { ok: _ok, ...push } = lastAck as { ok: boolean };
      return { ...push, step: lastStep };
    };
    return { mode, heapPerViewer, shoot, lastMessage, stop };
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
  console.error(`[bench] ${viewers} viewers: starting 2 cuecast instances + Redis and 2 bare Socket.IO servers …`);
  const cue = await setUp('cuecast', viewers, () => ({}));
  let bare: Topology | null = null;
  try {
    bare = await setUp('bare', viewers, () => cue.lastMessage());
    const results: Result[] = [cue, bare].map((t) => ({ viewers, mode: t.mode, fanout: [], ack: [], heapPerViewer: t.heapPerViewer, messageBytes: 0 }));
    console.error(`[bench] ${viewers} viewers: ${WARMUP} warm-up + ${SHOTS} measured shots each …`);
    for (let i = 0; i < WARMUP + SHOTS; i++) {
      for (const [k, t] of [cue, bare].entries()) {
        const r = await t.shoot(i);
        if (i >= WARMUP) {
          results[k]!.fanout.push(r.fanout);
          results[k]!.ack.push(r.ack);
        }
        await sleep(GAP_MS);
      }
    }
    const bytes = Buffer.byteLength(JSON.stringify(cue.lastMessage()));
    for (const r of results) r.messageBytes = bytes;
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
console.log(`\nFan-out: one scorer, ${SHOTS} shots, viewers split over two instances (node ${process.version}, ${(await import('node:os')).cpus().length} cores)\n`);
console.log('| viewers | server                         | msg bytes | emit→last viewer p50 ms | p99 ms | ratio p50 | ratio p99 | scorer ack p50 ms | ack p99 ms | heap / viewer KB |');
console.log('|--------:|--------------------------------|----------:|------------------------:|-------:|----------:|----------:|------------------:|-----------:|-----------------:|');
for (const n of SIZES) {
  const cue = results.find((r) => r.viewers === n && r.mode === 'cuecast')!;
  const bare = results.find((r) => r.viewers === n && r.mode === 'bare')!;
  for (const r of [cue, bare]) {
    const isCue = r === cue;
    console.log(
      `| ${String(n).padStart(7)} | ${(isCue ? 'cuecast (Redis log + adapter)' : 'bare Socket.IO broadcast').padEnd(30)} | ${String(r.messageBytes).padStart(9)} | ${f(pct(r.fanout, 0.5)).padStart(23)} | ${f(pct(r.fanout, 0.99)).padStart(6)} | ${(isCue ? f(pct(cue.fanout, 0.5) / pct(bare.fanout, 0.5)) : '').padStart(9)} | ${(isCue ? f(pct(cue.fanout, 0.99) / pct(bare.fanout, 0.99)) : '').padStart(9)} | ${f(pct(r.ack, 0.5)).padStart(17)} | ${f(pct(r.ack, 0.99)).padStart(10)} | ${(r.heapPerViewer / 1024).toFixed(1).padStart(16)} |`,
    );
  }
}
console.log('\nTargets: ratio p50 ≤ 1.15 at 1k viewers; scorer ack p99 ≤ 5 ms; server heap ≤ 10 KB per viewer.');
process.exit(0);
