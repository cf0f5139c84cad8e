/**
 * Match-server helpers for tests: start an in-process server, spawn one as a child process (to kill it),
 * open Socket.IO clients, call the REST API, and build a sequence of legal steps with the engine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import type { RunningServer } from '../../server/app';
import { startServer, type ServerOptions } from '../../server/backends';
import { applyStep, newMatch, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { plausibleStep, seededRandom } from '../../shared/simulate';
import type { Step } from '../../shared/protocol/steps';
import { dropPrefix } from './redis';
import { PROTOCOL_VERSION, type AckedRequests, type ClientToServerEvents, type ServerToClientEvents, type StatePush } from '../../shared/protocol/wire';

export type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The set-up most suites use: 14-1, NBA rules, race to 1000 so long streams of shots stay legal. */
export const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [1000, 1000] } as const;

/** Generous limits so suites that fire hundreds of messages are not rate-limited (one suite tests the limit). */
export const TEST_LIMITS = {
  messagesPerSecond: 10_000,
  burst: 10_000,
  requestsPerMinute: 100_000,
  matchesPerHour: 100_000,
  replyBurstBytes: 1e12,
  replyBytesPerSecond: 1e12,
};

/**
 * Temporary directories for one suite (call at the top of the test file): the returned function makes
 * `cuecast-<name>-…` under the OS temp dir; every one is deleted after the suite.
 */
export function tempDirs(): (name?: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return (name = 'data') => {
    const d = mkdtempSync(join(tmpdir(), `cuecast-${name}-`));
    dirs.push(d);
    return d;
  };
}

/**
 * Two in-process servers sharing the Redis at `redisUrl` under `prefix`, for one suite (call inside its
 * `describe`): started before its tests; after them, every socket `open`ed is closed, both servers are closed
 * and the prefix's keys deleted. Read `s1` / `s2` inside the tests.
 */
export function twoInstances(redisUrl: string, prefix: string) {
  const servers: RunningServer[] = [];
  const sockets: Client[] = [];
  beforeAll(async () => {
    servers.push(await startTestServer({ redisUrl, redisPrefix: prefix }), await startTestServer({ redisUrl, redisPrefix: prefix }));
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(servers.map((s) => s.close()));
    await dropPrefix(redisUrl, prefix);
  });
  return {
    get s1(): RunningServer {
      return servers[0]!;
    },
    get s2(): RunningServer {
      return servers[1]!;
    },
    /** A socket to `url` (with a scorer token), closed after the suite. */
    async open(url: string, token?: string): Promise<Client> {
      const s = await connect(url, token);
      sockets.push(s);
      return s;
    },
  };
}

/** Start an in-process server on a random port, silent unless LOG_LEVEL is set. */
export function startTestServer(opts: ServerOptions = {}): Promise<RunningServer> {
  return startServer({ port: 0, logLevel: process.env.LOG_LEVEL ?? 'silent', ...opts, limits: { ...TEST_LIMITS, ...opts.limits } });
}

/** A server in a child process (tsx server/main.ts), so a test can SIGKILL it. */
export interface ChildServer {
  url: string;
  proc: ChildProcess;
  /** SIGKILL: no graceful shutdown, nothing flushed beyond what was acknowledged. */
  kill(): Promise<void>;
}

/**
 * Spawn `server/main.ts` (through tsx; or `args`, e.g. `['dist/main.js']` for the compiled server) with `env`
 * on a random port; resolves once it listens.
 */
export function spawnServer(env: Record<string, string>, args: string[] = ['--import', 'tsx', 'server/main.ts']): Promise<ChildServer> {
  const proc = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error('server child did not start in 20 s')), 20_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${e.message}\nstdout: ${out}\nstderr: ${err}`));
    };
    proc.stderr!.on('data', (d) => (err += d.toString()));
    proc.once('exit', (code) => fail(new Error(`server child exited with ${code}`)));
    proc.stdout!.on('data', (d) => {
      out += d.toString();
      const m = /"url":"(http:[^"]+)"/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      proc.removeAllListeners('exit');
      proc.stdout!.removeAllListeners('data');
      proc.stdout!.resume();
      resolve({
        url: m[1]!,
        proc,
        kill: () =>
          new Promise<void>((done) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return done();
            proc.once('exit', () => done());
            proc.kill('SIGKILL');
          }),
      });
    });
  });
}

/** Open a websocket-only Socket.IO client (with `token` as `auth.token`) and wait until it is connected. */
export function connect(url: string, token?: string, opts: { reconnection?: boolean } = {}): Promise<Client> {
  const socket: Client = io(url, {
    transports: ['websocket'],
    auth: token ? { token } : {},
    forceNew: true,
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
    ...opts,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (e) => {
      socket.close();
      reject(e);
    });
  });
}

/** Emit any payload, as is, with an acknowledgement (malformed and hand-built messages); rejects after `timeoutMs`. */
export async function call<T>(socket: Client, event: keyof AckedRequests, payload: unknown, timeoutMs = 5000): Promise<T> {
  return await (socket.timeout(timeoutMs) as unknown as { emitWithAck(e: string, p: unknown): Promise<T> }).emitWithAck(event, payload);
}

/**
 * Emit a typed `subscribe` or `record` request with this build's PROTOCOL_VERSION, as the pages' client
 * does, and await its typed ack; rejects after `timeoutMs`.
 */
export function request<E extends keyof AckedRequests>(
  socket: Client,
  event: E,
  req: Omit<AckedRequests[E]['request'], 'protocol'>,
  timeoutMs = 5000,
): Promise<AckedRequests[E]['ack']> {
  return call<AckedRequests[E]['ack']>(socket, event, { protocol: PROTOCOL_VERSION, ...req }, timeoutMs);
}

/** `POST /api/matches` → the created match (throws on a non-201). */
export async function createMatch(
  url: string,
  setup: unknown = SETUP,
  headers: Record<string, string> = {},
): Promise<{ id: string; scorerToken: string; version: number }> {
  const res = await fetch(`${url}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(setup) });
  if (res.status !== 201) throw new Error(`create match: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; scorerToken: string; version: number };
}

/**
 * Record match `m`'s opening break over REST (the first of `legalSteps` for its set-up): the shot clock does not run
 * for a break (D-32a), so a test that runs the clock records the break first. @throws unless it is recorded.
 */
export async function recordBreak(url: string, m: { id: string; scorerToken: string }): Promise<void> {
  const setup = (await api(url, `/api/matches/${m.id}`)).body.setup;
  const res = await api(url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `break-${m.id}`, step: legalSteps(1, setup)[0] } });
  if (res.status !== 201) throw new Error(`record the break: ${res.status} ${JSON.stringify(res.body)}`);
}

/** JSON request helper: `{status, body}`. */
export async function api(
  url: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown; rawBody?: string } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? (init.body !== undefined || init.rawBody !== undefined ? 'POST' : 'GET'),
    headers,
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // non-JSON (CSV, pages)
  }
  return { status: res.status, body };
}

/**
 * `n` legal steps for `setup`, found with the engine: each is the first candidate it accepts (a called
 * ball pocketed, 1…15, else a legal safety break). Deterministic.
 */
export function legalSteps(n: number, setup: unknown = SETUP): Step[] {
  let m: Match = newMatch(parseSetup(setup));
  const candidates: Step[] = [];
  for (let b = 1; b <= 15; b++) candidates.push({ shot: { call: { ball: b }, pocketed: [b] } });
  candidates.push({ shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } });
  const steps: Step[] = [];
  while (steps.length < n) {
    const next = candidates.find((c) => {
      const r = applyStep(m, c);
      if (r.ok) m = r.match;
      return r.ok;
    });
    if (!next) throw new Error(`no legal candidate step after ${steps.length} steps`);
    steps.push(next);
  }
  return steps;
}

/** A long 14-1 set-up (race to 10,000: no winner within any test or benchmark). */
export const LONG_SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [10_000, 10_000] } as const;

/**
 * `n` plausible legal steps for `setup` (shared/simulate: several innings, safeties, fouls, re-racks), with
 * an undo at rate `undoRate` (and whenever the match is won). Deterministic for a seed.
 */
export function plausibleSteps(n: number, setup: unknown = LONG_SETUP, opts: { seed?: number; undoRate?: number } = {}): Step[] {
  const rand = seededRandom(opts.seed ?? 1);
  let m: Match = newMatch(parseSetup(setup));
  const steps: Step[] = [];
  while (steps.length < n) {
    const step: Step = m.depth > 0 && (m.core.winner !== null || rand() < (opts.undoRate ?? 0)) ? { undo: true } : plausibleStep(m, rand);
    const r = applyStep(m, step);
    if (!r.ok) throw new Error(`simulated step ${steps.length} refused: ${r.error.message}`);
    m = r.match;
    steps.push(step);
  }
  return steps;
}

/** Collects the `state` pushes a socket receives; `waitFor(v)` resolves once version ≥ v was seen. */
export class Viewer {
  latest = 0;
  readonly pushes: StatePush[] = [];
  private waiters: { v: number; resolve: () => void }[] = [];
  constructor(readonly socket: Client) {
    socket.on('state', (p) => {
      this.pushes.push(p);
      this.seen(p.version);
    });
  }
  /** Note a version learnt another way (a subscribe ack). */
  seen(version: number): void {
    if (version > this.latest) this.latest = version;
    this.waiters = this.waiters.filter((w) => {
      if (this.latest < w.v) return true;
      w.resolve();
      return false;
    });
  }
  waitFor(v: number, timeoutMs = 10_000): Promise<void> {
    if (this.latest >= v) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`viewer stuck at version ${this.latest}, wanted ${v}`)), timeoutMs);
      this.waiters.push({ v, resolve: () => (clearTimeout(t), resolve()) });
    });
  }
}
