/**
 * `npm run bench:clock` — do all screens show the same second? (issue 18: ≤ 50 ms p99 from the server's moment.)
 *
 * Two cuecast instances share the Redis at REDIS_URL (keys under a throw-away prefix, deleted afterwards); one
 * Rotation match with a shot clock (12 s a shot, 12 s extensions); BENCH_VIEWERS (default 100) viewers in
 * BENCH_PROCS (default 4) child processes (bench/clock-viewers.ts: the pages' own live-client code, each viewer
 * with its own connection, alternating between the instances, its local clock skewed by up to ±30 s). The
 * scorer runs the clock as a referee would, alternating presses between the instances: start and let it run
 * out; reset, start, pause for 2 s, resume, extension, run out; then BENCH_ROUNDS (default 2) more plain runs.
 * For every change of a viewer's shown second made by its own timer, the error is the true time of the change
 * minus the server's moment of it (deadline − seconds × 1000; both on this machine's clock). Printed: count,
 * p50, p99 and max of |error|, and the mean (a constant lead or lag), in ms.
 * Options (env): BENCH_VIEWERS, BENCH_PROCS, BENCH_ROUNDS, REDIS_URL.
 */
import { randomUUID } from 'node:crypto';
import type { ShotClockView } from '../shared/shot-clock';
import type { Change } from './clock-viewers';
import { startChild, type BenchChild } from './child';
import { deleteKeys, pct } from './common';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 100);
const PROCS = Number(process.env.BENCH_PROCS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SHOT_S = 12;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

const SETTINGS = {
  shotSeconds: SHOT_S,
  firstShotSeconds: SHOT_S,
  pushOutSeconds: SHOT_S,
  extensionSeconds: SHOT_S,
  extensionsPerPlayer: 5,
  extensionPeriod: { per: 'match' },
  warningSeconds: 10,
  urgentSeconds: 5,
  showFromSeconds: null,
  autoStart: false,
  matchClock: { kind: 'played' },
};

async function api<T>(url: string, path: string, method: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

async function main(): Promise<void> {
  const prefix = `bench-clock-${randomUUID().slice(0, 8)}:`;
  const servers: BenchChild[] = [];
  const urls: string[] = [];
  for (let i = 0; i < 2; i++) {
    const c = startChild('bench/fanout-server.ts', { BENCH_MODE: 'cuecast', BENCH_REDIS_URL: REDIS_URL, BENCH_PREFIX: prefix }, ['--expose-gc']);
    servers.push(c);
    urls.push((await c.next<{ url: string }>('listening', () => true, 30_000)).url);
  }
  const viewers: BenchChild[] = [];
  try {
    const m = await api<{ id: string; scorerToken: string }>(urls[0]!, '/api/matches', 'POST', {
      discipline: 'rotation',
      ruleset: 'nba',
      players: ['Ann', 'Bob'],
      targets: [7, 7],
    });
    await api(urls[0]!, `/api/matches/${m.id}/clock`, 'PUT', { settings: SETTINGS }, m.scorerToken);
    let presses = 0;
    /** Press `action` on the instance whose turn it is; the clock it answers with. */
    const press = async (action: string): Promise<ShotClockView> => {
      const url = urls[presses++ % 2]!;
      const r = await api<{ clock: ShotClockView }>(url, `/api/matches/${m.id}/clock/${action}`, 'POST', {}, m.scorerToken);
      return r.clock;
    };
    for (let p = 0; p < PROCS; p++) {
      const n = Math.floor(VIEWERS / PROCS) + (p < VIEWERS % PROCS ? 1 : 0);
      const c = startChild('bench/clock-viewers.ts', { BENCH_VIEWERS: String(n) });
      viewers.push(c);
      c.send({ type: 'start', urls: p % 2 === 0 ? urls : [...urls].reverse(), matchId: m.id });
    }
    for (const c of viewers) await c.next('ready', () => true, 60_000);
    await sleep(2000); // every viewer's offset estimate sampled
    const runOut = async (view: ShotClockView) => {
      await sleep(Math.max(0, (view.deadline ?? 0) - Date.now()) + 500);
    };
    console.log(`bench:clock — ${VIEWERS} viewers in ${PROCS} processes on 2 instances; ${SHOT_S} s shots`);
    await runOut(await press('start'));
    await press('reset');
    await press('start');
    await sleep(4300);
    await press('pause');
    await sleep(2000);
    await press('resume');
    await sleep(1700);
    await runOut(await press('extension'));
    for (let r = 0; r < ROUNDS; r++) {
      await press('reset');
      await runOut(await press('start'));
    }
    const all: Change[] = [];
    const seen = new Set<string>();
    for (const [p, c] of viewers.entries()) {
      c.send({ type: 'report' });
      for (const ch of (await c.next<{ changes: Change[] }>('changes')).changes) {
        all.push(ch);
        seen.add(`${p}/${ch.viewer}`);
      }
    }
    const errors = all.map((c) => c.at - (c.deadline - c.seconds * 1000));
    const abs = errors.map(Math.abs);
    const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
    console.log(`changes measured: ${all.length} from ${seen.size} of ${VIEWERS} viewers (${(all.length / VIEWERS).toFixed(1)} per viewer)`);
    console.log(
      `|shown − server| ms: p50 ${pct(abs, 0.5).toFixed(1)}  p99 ${pct(abs, 0.99).toFixed(1)}  max ${Math.max(...abs).toFixed(1)}  mean error ${mean.toFixed(1)} (+: late)`,
    );
    const goal = pct(abs, 0.99) <= 50;
    console.log(goal ? 'goal met: p99 ≤ 50 ms' : 'GOAL MISSED: p99 > 50 ms');
  } finally {
    for (const c of viewers) await c.stop();
    for (const c of servers) await c.stop();
    await deleteKeys(REDIS_URL, prefix);
  }
}

await main();
