/**
 * `npm run bench:tables` — fan-out of an event with many tables (issue 12), beside the single-match figure.
 *
 * Two cuecast instances (bench/fanout-server.ts, cuecast mode) share the Redis at REDIS_URL (keys under a
 * throw-away prefix, deleted afterwards). Viewers follow tables as an OBS overlay of a table does
 * (bench/tables-viewers.ts: `subscribeTable`, then the table's current match), split evenly over the two
 * instances, in child processes. Scorers record through both instances (table i through instance i mod 2).
 * Phases, each with fresh viewers:
 * 1. single match: 1 table × (TABLES × VIEWERS) viewers, SHOTS × TABLES shots one after another — the same
 *    audience in one room, the `npm run bench` figure;
 * 2. tables, one at a time: TABLES × VIEWERS viewers, a shot on each table in turn (SHOTS rounds);
 * 3. tables, all at once: the same viewers, each round a shot on every table at the same moment;
 * 4. table switch: the organiser starts each table's next match; emit → the last viewer of the table has the
 *    `table` push.
 * Measured: emit → the LAST viewer of that match (or table) has it, p50 / p99.
 * Options (env): BENCH_TABLES (20), BENCH_TABLE_VIEWERS (250), BENCH_SHOTS (20 rounds), BENCH_GAP_MS (5), REDIS_URL.
 */
import { cpus } from 'node:os';
import type { Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '../shared/protocol/wire';
import { legalSteps } from '../tests/helpers/server';
import { startChild } from './child';
import { connect, deleteKeys, latest, pct } from './common';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TABLES = Number(process.env.BENCH_TABLES ?? 20);
const VIEWERS = Number(process.env.BENCH_TABLE_VIEWERS ?? 250);
const ROUNDS = Number(process.env.BENCH_SHOTS ?? 20);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 5);
const WARMUP = 3;
const SETUP = { discipline: '14-1', ruleset: 'nba', targets: [1000, 1000] };
const steps = legalSteps(WARMUP + ROUNDS * TABLES + 2, { ...SETUP, players: ['A', 'B'] });
const PREFIX = `cuecast-bench-tables:${process.pid}:`;

const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const ms = (ns: bigint) => Number(ns) / 1e6;

async function post(url: string, path: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** One event with `tables` tables, a started match on each, and `perTable` viewers per table over both instances. */
async function stage(servers: { url: string }[], tables: number, perTable: number) {
  const names = Array.from({ length: tables }, (_, i) => `Table ${i + 1}`);
  const ev = await post(servers[0]!.url, '/api/events', { name: 'Bench', date: '2026-01-01', defaults: SETUP, tables: names });
  const matches: { id: string; token: string; table: string; version: number; scorer: Socket }[] = [];
  for (const [i, t] of ev.event.tables.entries()) {
    const made = await post(
      servers[0]!.url,
      `/api/events/${ev.id}/tables/${t.id}/matches`,
      { setup: { players: [`A${i}`, `B${i}`] }, start: true },
      ev.organiserToken,
    );
    matches.push({
      id: made.match.id,
      token: made.match.scorerToken,
      table: t.id,
      version: 0,
      scorer: await connect(servers[i % 2]!.url, made.match.scorerToken),
    });
  }
  const viewers = servers.map(() => startChild('bench/tables-viewers.ts'));
  const half = [Math.floor(perTable / 2), perTable - Math.floor(perTable / 2)];
  viewers.forEach((v, i) => v.send({ type: 'start', url: servers[i]!.url, eventId: ev.id, tables: matches.map((m) => ({ table: m.table, count: half[i] })) }));
  await Promise.all(viewers.map((v) => v.next('ready', () => true, 600_000)));
  await sleep(500);

  /** Record the next shot on match `m`; resolves with emit → last viewer (ms). */
  const shoot = async (m: (typeof matches)[number]) => {
    const version = m.version + 1;
    const done = viewers.map((v) => v.next<{ at: string }>('done', (x) => x.matchId === m.id && x.version === version, 60_000));
    const t0 = process.hrtime.bigint();
    const ack: any = await m.scorer
      .timeout(30_000)
      .emitWithAck('record', { protocol: PROTOCOL_VERSION, matchId: m.id, stepId: `b${version}`, expectedVersion: m.version, step: steps[m.version] });
    if (!ack.ok) throw new Error(`record refused: ${JSON.stringify(ack.error)}`);
    m.version = version;
    const last = latest(await Promise.all(done));
    return ms(last - t0);
  };
  /** Start a new next match on `m`'s table; resolves with emit → last viewer of the table has the switch (ms). */
  const switchTable = async (m: (typeof matches)[number], i: number) => {
    const made = await post(
      servers[i % 2]!.url,
      `/api/events/${ev.id}/tables/${m.table}/matches`,
      { setup: { players: [`C${i}`, `D${i}`] } },
      ev.organiserToken,
    );
    const done = viewers.map((v) => v.next<{ at: string }>('switched', (x) => x.table === m.table && x.current === made.match.id, 60_000));
    const t0 = process.hrtime.bigint();
    await post(servers[(i + 1) % 2]!.url, `/api/events/${ev.id}/tables/${m.table}/start`, {}, ev.organiserToken);
    const last = latest(await Promise.all(done));
    return ms(last - t0);
  };
  const stop = async () => {
    for (const m of matches) m.scorer.close();
    await Promise.all(viewers.map((v) => v.stop()));
  };
  return { matches, shoot, switchTable, stop };
}

const rows: { phase: string; viewers: string; shots: number; p50: number; p99: number }[] = [];
const record = (phase: string, viewers: string, xs: number[]) => rows.push({ phase, viewers, shots: xs.length, p50: pct(xs, 0.5), p99: pct(xs, 0.99) });

const servers = [0, 1].map(() => startChild('bench/fanout-server.ts', { BENCH_MODE: 'cuecast', BENCH_REDIS_URL: REDIS_URL, BENCH_PREFIX: PREFIX }));
try {
  const urls = await Promise.all(servers.map((s) => s.next<{ url: string }>('listening', () => true, 30_000)));

  console.error(`[bench] single match: 1 × ${TABLES * VIEWERS} viewers …`);
  const one = await stage(urls, 1, TABLES * VIEWERS);
  const single: number[] = [];
  for (let i = 0; i < WARMUP + ROUNDS * TABLES; i++) {
    const t = await one.shoot(one.matches[0]!);
    if (i >= WARMUP) single.push(t);
    await sleep(GAP_MS);
  }
  record('single match (the `npm run bench` case)', `1 × ${TABLES * VIEWERS}`, single);
  await one.stop();

  console.error(`[bench] tables: ${TABLES} × ${VIEWERS} viewers …`);
  const many = await stage(urls, TABLES, VIEWERS);
  for (const m of many.matches) for (let i = 0; i < WARMUP; i++) await many.shoot(m);
  const turn: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const m of many.matches) {
      turn.push(await many.shoot(m));
      await sleep(GAP_MS);
    }
  }
  record('tables, one shot at a time', `${TABLES} × ${VIEWERS}`, turn);
  const burst: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    burst.push(...(await Promise.all(many.matches.map((m) => many.shoot(m)))));
    await sleep(GAP_MS);
  }
  record(`tables, ${TABLES} shots at once`, `${TABLES} × ${VIEWERS}`, burst);
  const switches: number[] = [];
  for (const [i, m] of many.matches.entries()) switches.push(await many.switchTable(m, i));
  record('table switch (start next)', `${TABLES} × ${VIEWERS}`, switches);
  await many.stop();
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await deleteKeys(REDIS_URL, PREFIX);
}

const f = (x: number) => x.toFixed(2);
console.log(`\nEvent fan-out: viewers follow tables over two instances on Redis (node ${process.version}, ${cpus().length} cores)\n`);
console.log('| phase                                   | viewers      | shots | emit→last viewer p50 ms | p99 ms |');
console.log('|-----------------------------------------|--------------|------:|------------------------:|-------:|');
for (const r of rows)
  console.log(`| ${r.phase.padEnd(39)} | ${r.viewers.padEnd(12)} | ${String(r.shots).padStart(5)} | ${f(r.p50).padStart(23)} | ${f(r.p99).padStart(6)} |`);
process.exit(0);
