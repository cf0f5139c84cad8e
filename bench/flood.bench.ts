/**
 * `npm run bench:flood` — slow readers against a scorer (issue 19). The server runs as a child process
 * (`server/main.ts`, embedded SQLite store, production limits) with a long 14-1 match (BENCH_FLOOD_STEPS, default
 * 5,000 plausible steps: shared/simulate). A victim scorer records BENCH_FLOOD_SHOTS shots (default 200, one every
 * 50 ms) on another match, first alone, then while BENCH_FLOOD_READERS (default 20) connections that never read
 * ask for the long match's whole sheet as fast as the per-connection rate limit lets them. Prints the victim's ack
 * p50 / p99 / max in both phases, the server's RSS, and how the readers ended (withheld answers, dropped).
 * Goal: p99 under 100 ms during the flood. BENCH_FLOOD_NODE_ARGS adds Node flags to the server child (for example
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`: the profile is written when the server exits at the end).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Socket as TcpSocket } from 'node:net';
import type { Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '../shared/protocol/wire';
import { LONG_SETUP, plausibleSteps, REPO_ROOT } from '../tests/helpers/server';
import { connect, pct } from './common';

const STEPS = Number(process.env.BENCH_FLOOD_STEPS ?? 5000);
const SHOTS = Number(process.env.BENCH_FLOOD_SHOTS ?? 200);
const READERS = Number(process.env.BENCH_FLOOD_READERS ?? 20);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = mkdtempSync(join(tmpdir(), 'cuecast-flood-'));
const nodeArgs = (process.env.BENCH_FLOOD_NODE_ARGS ?? '').split(' ').filter(Boolean);
const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
  cwd: REPO_ROOT,
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', MATCHES_PER_HOUR: '1000' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d.toString();
    const m = /"url":"(http:[^"]+)"/.exec(out);
    if (!m) return;
    out = '';
    child.stdout!.removeAllListeners('data');
    child.stdout!.on('data', (d: Buffer) => {
      // Warnings and errors only (dropped readers, refusals): the info lines are the server's routine.
      for (const l of d.toString().split('\n')) if (/"level":(40|50|60)/.test(l)) console.error(l.slice(0, 300));
    });
    resolve(m[1]!);
  });
  child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
});
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function createMatch(): Promise<{ id: string; scorerToken: string }> {
  const res = await fetch(`${url}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(LONG_SETUP) });
  if (res.status !== 201) throw new Error(`create: ${res.status}`);
  return (await res.json()) as { id: string; scorerToken: string };
}

type Ack = { ok: boolean; version?: number; error?: { code: string; message: string } };
const ask = (s: Socket, event: string, body: object, timeoutMs = 30_000) =>
  s.timeout(timeoutMs).emitWithAck(event, { protocol: PROTOCOL_VERSION, ...body }) as Promise<Ack>;

try {
  // The long match, recorded round-robin over 60 scorer connections (each stays under 20 messages a second).
  const long = await createMatch();
  const steps = plausibleSteps(STEPS + SHOTS * 2, LONG_SETUP, { seed: 19, undoRate: 0.02 });
  const writers = await Promise.all(Array.from({ length: 60 }, () => connect(url, long.scorerToken)));
  const t0 = performance.now();
  for (let i = 0; i < STEPS; i++) {
    const ack = await ask(writers[i % writers.length]!, 'record', { matchId: long.id, eventId: `l${i}`, expectedVersion: i, step: steps[i] });
    if (!ack.ok) throw new Error(`long match step ${i}: ${JSON.stringify(ack.error)}`);
  }
  for (const w of writers) w.close();
  const probe = await connect(url);
  const sheet = JSON.stringify(await ask(probe, 'subscribe', { matchId: long.id })).length;
  probe.close();
  console.log(`long match: ${STEPS} steps in ${((performance.now() - t0) / 1000).toFixed(1)} s; its whole answer ${(sheet / 1024).toFixed(0)} KB`);

  const victim = await createMatch();
  const scorer = await connect(url, victim.scorerToken);
  let shot = 0;
  async function phase(): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < SHOTS; i++, shot++) {
      const t = performance.now();
      const ack = await ask(scorer, 'record', { matchId: victim.id, eventId: `v${shot}`, step: steps[shot] }, 10_000).catch(
        (e: Error) => ({ ok: false, error: { code: 'timeout', message: e.message } }) as Ack,
      );
      if (!ack.ok) throw new Error(`victim shot ${shot}: ${JSON.stringify(ack.error)}`);
      times.push(performance.now() - t);
      await sleep(50);
    }
    return times;
  }
  const line = (name: string, xs: number[]) =>
    console.log(
      `${name.padEnd(22)} ack p50 ${pct(xs, 0.5).toFixed(1).padStart(6)} ms   p99 ${pct(xs, 0.99).toFixed(1).padStart(6)} ms   max ${Math.max(...xs)
        .toFixed(1)
        .padStart(6)} ms   server RSS ${rssMb().toFixed(0)} MB`,
    );

  const limit = (name: string, fallback: string) => `${name}=${process.env[name] ?? fallback}`;
  console.log(
    `protection: ${[limit('REPLY_BUFFER_BYTES', '524288 (default)'), limit('MAX_BUFFERED_BYTES', '4194304 (default)'), limit('REPLY_BURST_BYTES', '1048576 (default)'), limit('REPLY_BYTES_PER_SECOND', '262144 (default)')].join(', ')}`,
  );
  const rssBefore = rssMb();
  const calm = await phase();
  line('without the flood', calm);

  // The flood: READERS connections read one answer, stop reading (TCP paused) and ask again and again.
  const readers = await Promise.all(Array.from({ length: READERS }, () => connect(url)));
  const counts = { sent: 0, notReading: 0, overBudget: 0, tooMany: 0, dropped: 0 };
  let flooding = true;
  const floods = readers.map(async (r) => {
    await ask(r, 'subscribe', { matchId: long.id });
    r.on('disconnect', () => counts.dropped++);
    (r.io.engine.transport as unknown as { ws: { _socket: TcpSocket } }).ws._socket.pause();
    while (flooding && r.connected) {
      r.emit('subscribe', { protocol: PROTOCOL_VERSION, matchId: long.id }, (a: Ack) => {
        if (a.ok) counts.sent++;
        else if (a.error?.code !== 'rate-limited') return;
        else if (/not reading/.test(a.error.message)) counts.notReading++;
        else if (/more than it can be sent/.test(a.error.message)) counts.overBudget++;
        else counts.tooMany++;
      });
      await sleep(50); // 20 a second: the production per-connection limit
    }
  });
  await sleep(1000);
  const flooded = await phase();
  line(`with ${READERS} slow readers`, flooded);
  const peak = rssMb();
  flooding = false;
  for (const r of readers) (r.io.engine.transport as unknown as { ws?: { _socket?: TcpSocket } }).ws?._socket?.resume();
  await Promise.all(floods);
  await sleep(1000);
  console.log(
    `readers: ${counts.sent} whole answers sent; withheld (rate-limited): ${counts.notReading} not reading, ${counts.overBudget} over the reply budget, ${counts.tooMany} too many messages; ${counts.dropped} of ${READERS} dropped; ` +
      `server RSS ${rssBefore.toFixed(0)} MB before, ${peak.toFixed(0)} MB at the end of the flood; p99 goal < 100 ms: ${pct(flooded, 0.99) < 100 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `(node ${process.version}, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  for (const r of readers) r.close();
  scorer.close();
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
