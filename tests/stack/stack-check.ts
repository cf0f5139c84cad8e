/**
 * The compose stack end to end, through nginx: run by .ci/docker-stack.sh only (it starts a private Docker
 * engine, builds the image and brings the stack up first); not a vitest file, so `npm test` never runs it.
 * Prints one PASS or FAIL line per check, with the failover times; exits 1 when any check failed.
 *
 * Environment: STACK_URL (nginx), STACK_URL1 / STACK_URL2 (each instance, published on 127.0.0.1 by
 * .ci/compose.ci.yml), ADMIN_TOKEN (the stack's), COMPOSE (the docker-compose command line of the stack),
 * STACK_PROJECT (its compose project name).
 */
import { exec, execSync } from 'node:child_process';
import { io } from 'socket.io-client';
import { api, legalSteps, request, SETUP, Viewer, type Client } from '../helpers/server';
import type { SubscribeAck } from '../../shared/protocol/wire';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (run .ci/docker-stack.sh)`);
  return v;
};
const URL_LB = env('STACK_URL');
const URL1 = env('STACK_URL1');
const URL2 = env('STACK_URL2');
const ADMIN_TOKEN = env('ADMIN_TOKEN');
const COMPOSE = env('COMPOSE');
const PROJECT = env('STACK_PROJECT');
/** Requests and viewers must be back within this long after one instance stops (issue 21). */
const RECOVERY_MS = 5000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sh = (cmd: string) => execSync(cmd, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 }).trim();
const compose = (args: string) => sh(`${COMPOSE} ${args}`);
/**
 * A command without blocking the event loop. During a fault the viewers of this process must answer the
 * instances' heartbeat (a ping a second, 1.5 s to answer): a blocking `execSync` of the (slow, Python)
 * docker-compose would make the instances drop them all, which no real viewer sees.
 */
const run = (cmd: string) =>
  new Promise<string>((ok, fail) =>
    exec(cmd, { timeout: 120_000 }, (err, out, errOut) => (err ? fail(new Error(`${cmd}: ${err.message} ${errOut}`)) : ok(out.trim()))),
  );
const SERVICES = ['redis', 'cuecast1', 'cuecast2', 'lb'];
/** Container ids of the services, read once per `up` (docker-compose is slow to start: no call per check). */
const ids = new Map<string, string>();
async function readIds(): Promise<void> {
  for (const s of SERVICES) ids.set(s, await run(`${COMPOSE} ps -q ${s}`));
}
const containerOf = (service: string) => {
  const id = ids.get(service);
  if (!id) throw new Error(`no container for ${service}`);
  return id;
};
const health = (service: string) =>
  run(`docker inspect --format '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' ${containerOf(service)}`);
await readIds();

let failed = 0;
let passed = 0;
/** Run one check: PASS with what it measured, or FAIL with why (the run goes on; the exit code says). */
async function check(name: string, fn: () => Promise<string | void>): Promise<boolean> {
  const t0 = Date.now();
  try {
    const detail = await fn();
    passed++;
    console.log(`PASS ${name}${detail ? ` — ${detail}` : ''} (${Date.now() - t0} ms)`);
    return true;
  } catch (err) {
    failed++;
    console.log(`FAIL ${name} — ${(err as Error).message}`);
    return false;
  }
}
function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

/** Wait until every service reports healthy (instances and redis by their health checks), at most `ms`. */
async function allHealthy(services: string[], ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  let last = '';
  while (Date.now() < until) {
    last = (await Promise.all(services.map(async (s) => `${s}=${await health(s)}`))).join(' ');
    if (services.every((s) => last.includes(`${s}=healthy`))) return;
    await sleep(1000);
  }
  throw new Error(`not healthy within ${ms / 1000} s: ${last}`);
}

/**
 * A viewer as the pages open one (websocket only, Socket.IO's default reconnection: 1 s, up to 5 s, jittered),
 * subscribed to `matchId`; it subscribes again after every reconnection, as the pages' client does.
 * `down` / `back` are the times of its last disconnection and of the re-subscription that followed.
 */
async function viewer(url: string, matchId: string) {
  const socket: Client = io(url, { transports: ['websocket'], forceNew: true });
  const v = new Viewer(socket);
  const times = { down: 0, back: 0, reconnections: 0 };
  const subscribe = async () => {
    const ack = (await request(socket, 'subscribe', { matchId, detail: 'full', sinceVersion: v.latest })) as SubscribeAck;
    if (!ack.ok) throw new Error(`subscribe refused: ${ack.error.code}`);
    v.seen(ack.version);
  };
  socket.on('disconnect', () => (times.down = Date.now()));
  await new Promise<void>((ok, fail) => {
    socket.once('connect', ok);
    socket.once('connect_error', fail);
  });
  await subscribe();
  socket.on('connect', () => {
    times.reconnections++;
    subscribe().then(
      () => (times.back = Date.now()),
      () => undefined,
    );
  });
  return { socket, v, times };
}

/** Record `step` over Socket.IO, retrying the same stepId (a retry records nothing twice) for up to 15 s. */
async function recordRetrying(socket: Client, matchId: string, stepId: string, expectedVersion: number, step: unknown): Promise<number> {
  const until = Date.now() + 15_000;
  for (;;) {
    const ack = await request(socket, 'record', { matchId, stepId, expectedVersion, step: step as never }, 2000).catch((e: Error) => ({
      ok: false as const,
      error: { code: 'no-ack', message: e.message },
    }));
    if (ack.ok) return ack.version;
    if (Date.now() > until) throw new Error(`record ${stepId} not acknowledged: ${JSON.stringify(ack)}`);
    await sleep(200);
  }
}

/** From the instance's own log (pino JSON): how long its last shutdown took, and whether the deadline was hit. */
function shutdownOf(service: string): string {
  const lines = sh(`docker logs --tail 200 ${containerOf(service)} 2>&1`).split('\n');
  const at = (msg: string) => {
    const line = lines.filter((l) => l.includes(`"msg":"${msg}"`)).pop();
    const m = line && /"time":(\d+)/.exec(line);
    return m ? Number(m[1]) : null;
  };
  const from = at('shutting down');
  const to = at('cuecast server stopped');
  const deadline = lines.find((l) => l.includes('clients did not close in time'));
  const peers = deadline && /"peers":(\[[^\]]*\])/.exec(deadline)?.[1];
  return from && to
    ? `the server's shutdown took ${to - from} ms${deadline ? ` (connections still open at the deadline, destroyed: ${peers})` : ''}`
    : 'no shutdown in its log';
}

const steps = legalSteps(20);
let matchId = '';
let scorerToken = '';
let version = 0;
const viewers: Awaited<ReturnType<typeof viewer>>[] = [];
const THROUGH_LB = 6;

await check('nginx answers /lb-health and /healthz from an instance on Redis', async () => {
  const lb = await fetch(`${URL_LB}/lb-health`);
  assert(lb.status === 200, `/lb-health: ${lb.status}`);
  const h = await api(URL_LB, '/healthz');
  assert(h.status === 200 && h.body.ok === true && h.body.store === 'redis', `/healthz: ${h.status} ${JSON.stringify(h.body)}`);
  return `/healthz ${JSON.stringify(h.body)}; health checks: ${(await Promise.all(SERVICES.map(async (s) => `${s} ${await health(s)}`))).join(', ')}`;
});

await check('the image runs as a non-root user', async () => {
  const user = sh(`docker image inspect --format '{{.Config.User}}' cuecast:latest`);
  const uid = compose('exec -T cuecast1 id -u');
  const cmd = sh(`docker image inspect --format '{{json .Config.Cmd}}' cuecast:latest`);
  assert(user === 'node' && uid !== '0', `image user "${user}", uid in the container ${uid}`);
  assert(cmd.includes('dist/main.js') && !cmd.includes('tsx'), `the image runs ${cmd}, not the compiled server`);
  return `user ${user}, uid ${uid}, command ${cmd}`;
});

await check('no anonymous volumes (only the named Redis volume)', async () => {
  const volumes = sh('docker volume ls -q').split('\n').filter(Boolean);
  assert(volumes.length === 1 && volumes[0] === `${PROJECT}_redis-data`, `volumes: ${volumes.join(', ')}`);
  return volumes.join(', ');
});

await check('creating a match needs the admin token (401 without, 403 wrong, 201 with)', async () => {
  const none = await api(URL_LB, '/api/matches', { body: SETUP });
  const wrong = await api(URL_LB, '/api/matches', { body: SETUP, token: `${ADMIN_TOKEN}x` });
  const ok = await api(URL_LB, '/api/matches', { body: SETUP, token: ADMIN_TOKEN });
  assert(none.status === 401 && wrong.status === 403 && ok.status === 201, `statuses ${none.status}, ${wrong.status}, ${ok.status}`);
  matchId = ok.body.id;
  scorerToken = ok.body.scorerToken;
  return `match ${matchId}`;
});
if (!matchId) {
  console.log(`stack test: ${passed} passed, ${failed + 1} failed (no match, the rest cannot run)`);
  process.exit(1);
}

await check(`viewers subscribe: one on each instance, ${THROUGH_LB} through nginx`, async () => {
  viewers.push(await viewer(URL1, matchId), await viewer(URL2, matchId));
  for (let i = 0; i < THROUGH_LB; i++) viewers.push(await viewer(URL_LB, matchId));
  return `${viewers.length} viewers`;
});

const scorer: Client = io(URL_LB, { transports: ['websocket'], forceNew: true, auth: { token: scorerToken } });
await new Promise<void>((ok) => scorer.once('connect', () => ok()));

await check('record over REST through nginx', async () => {
  const res = await api(URL_LB, `/api/matches/${matchId}/steps`, { token: scorerToken, body: { stepId: 'rest-0', expectedVersion: 0, step: steps[0] } });
  assert(res.status === 201 && res.body.version === 1, `${res.status} ${JSON.stringify(res.body)}`);
  version = 1;
  const again = await api(URL_LB, `/api/matches/${matchId}/steps`, { token: scorerToken, body: { stepId: 'rest-0', expectedVersion: 0, step: steps[0] } });
  assert(again.status === 200 && again.body.duplicate === true, `retry: ${again.status} ${JSON.stringify(again.body)}`);
  return 'version 1; the retry of the same stepId is a duplicate';
});

await check('record over Socket.IO through nginx', async () => {
  for (let i = 1; i < 10; i++) {
    const ack = await request(scorer, 'record', { matchId, stepId: `io-${i}`, expectedVersion: version, step: steps[i]! });
    assert(ack.ok && ack.version === version + 1, `step ${i}: ${JSON.stringify(ack)}`);
    version = ack.version;
  }
  return `versions 2-${version}`;
});

await check('viewers on both instances see every push, in order', async () => {
  await Promise.all(viewers.map((x) => x.v.waitFor(version, 10_000)));
  for (const [i, x] of viewers.entries()) {
    const seen = x.v.pushes.map((p) => p.version).join(',');
    const want = Array.from({ length: version }, (_, k) => k + 1).join(',');
    assert(seen === want, `viewer ${i} saw versions ${seen}, wanted ${want}`);
  }
  return `${viewers.length} viewers × ${version} pushes`;
});

// ---- Failover: cuecast2 stopped, killed (kill -9) and frozen (docker pause) while requests and viewers go on. ----
/** The container of `service`'s process id on this host (the engine runs here). */
const pidOf = (service: string) => run(`docker inspect --format '{{.State.Pid}}' ${containerOf(service)}`);
/** The instance's address on the compose network, as nginx's access log names it (`upstream=<ip>:3000`). */
const addressOf = async (service: string) =>
  (await run(`docker inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}' ${containerOf(service)}`)).split(' ')[0]!;
/** nginx's access log lines since `sinceMs` (deploy/nginx.conf's `cuecast` format names the upstream). */
const lbLogSince = async (sinceMs: number) => (await run(`docker logs --since ${Math.floor(sinceMs / 1000)} ${containerOf('lb')} 2>&1`)).split('\n');

type Fault = 'stop' | 'kill' | 'freeze';
/** How the freeze was made: `docker pause`, or SIGSTOP where the engine cannot pause. */
let freezeHow: 'docker pause' | 'SIGSTOP' | '' = '';
/** End the freeze the way it was made. */
const unfreeze = async () => (freezeHow === 'SIGSTOP' ? run(`kill -CONT ${await pidOf('cuecast2')}`) : run(`docker unpause ${containerOf('cuecast2')}`));
const recoveries: Record<string, string> = {};
let stopMs = 0;
let exitCode = '';
let stepNo = 10;

/**
 * One fault of cuecast2 while requests (GET through nginx, one at a time, a new one every 100 ms for `loadMs`) and
 * viewers go on: requests must keep answering, each within RECOVERY_MS, and every viewer through nginx that was on
 * cuecast2 must be back (re-subscribed on cuecast1) within RECOVERY_MS of the fault; a step recorded after the
 * fault reaches every live viewer. `docker stop` (graceful), `kill -9` of the server process (a crash: Docker
 * restarts it, restart: unless-stopped) or `docker pause` (frozen: connections stay open, nothing answers).
 */
async function failover(fault: Fault, loadMs: number): Promise<string> {
  const requests: { at: number; ms: number; ok: boolean; why?: string }[] = [];
  // Fresh viewers through nginx (those of an earlier fault all moved to cuecast1): round robin over the shared
  // upstream zone puts about half of them on cuecast2.
  for (const x of viewers.splice(2)) x.socket.close();
  for (let i = 0; i < THROUGH_LB; i++) viewers.push(await viewer(URL_LB, matchId));
  for (const x of viewers) x.times.down = x.times.back = 0;
  const t0 = Date.now();
  let faultAt = 0;
  const victim = containerOf('cuecast2');
  const pid = await pidOf('cuecast2');
  const acted = (async () => {
    await sleep(50);
    faultAt = Date.now();
    // Straight to the engine (docker's CLI is quick; docker-compose's would add seconds), without blocking.
    if (fault === 'stop') {
      await run(`docker stop -t 15 ${victim}`);
      stopMs = Date.now() - faultAt;
    } else if (fault === 'kill') {
      await run(`kill -9 ${pid}`);
    } else {
      try {
        await run(`docker pause ${victim}`);
        freezeHow = 'docker pause';
      } catch (err) {
        // An engine without the cgroup freezer: SIGSTOP of the server process freezes it the same way.
        console.log(`  docker pause failed (${(err as Error).message.split('\n')[0]}); SIGSTOP instead`);
        await run(`kill -STOP ${pid}`);
        freezeHow = 'SIGSTOP';
      }
    }
  })();
  const load = (async () => {
    while (Date.now() - t0 < loadMs) {
      const at = Date.now();
      try {
        const res = await fetch(`${URL_LB}/api/matches/${matchId}`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        requests.push({ at: at - t0, ms: Date.now() - at, ok: res.status === 200, why: res.status === 200 ? undefined : `HTTP ${res.status}` });
      } catch (err) {
        requests.push({ at: at - t0, ms: Date.now() - at, ok: false, why: (err as Error).message });
      }
      await sleep(Math.max(0, 100 - (Date.now() - at)));
    }
  })();
  await acted;
  // A step recorded after the fault, through nginx (the scorer reconnects if it was on cuecast2; a record sent to
  // the frozen instance times out and is retried with the same stepId).
  const stepId = `after-${fault}`;
  version = await recordRetrying(scorer, matchId, stepId, version, steps[stepNo++]);
  const recordedAt = Date.now();
  const live = viewers.filter((_, i) => i !== 1); // viewer 1 is on cuecast2 itself: nothing to reconnect to
  await Promise.all(live.map((x) => x.v.waitFor(version, 15_000)));
  const pushedMs = Date.now() - recordedAt;
  await load;
  const moved = live.filter((x) => x.times.down >= faultAt);
  const noticedMs = moved.map((x) => x.times.down - faultAt);
  const backMs = moved.map((x) => (x.times.back ? x.times.back - faultAt : Infinity));
  const bad = requests.filter((r) => !r.ok);
  const slowest = requests.reduce((a, r) => (r.ms > a.ms ? r : a), requests[0]!);
  const ms = (list: number[]) => (list.length ? list.map((n) => `${n} ms`).join(', ') : '—');
  const line =
    `${requests.length} requests in ${loadMs / 1000} s, ${bad.length} failed, slowest ${slowest.ms} ms (sent at +${(slowest.at / 1000).toFixed(1)} s); ` +
    `${moved.length} of ${THROUGH_LB} viewers through nginx were on cuecast2: disconnected after ${ms(noticedMs)}, back (re-subscribed) after ${ms(backMs)} from the ${fault}; ` +
    `the step recorded after the ${fault} reached every live viewer in ${pushedMs} ms`;
  recoveries[fault] =
    `requests: slowest ${slowest.ms} ms, ${bad.length} failed; viewers back after ${moved.length ? `${Math.max(...backMs)} ms at most` : '— (none was on it)'}`;
  console.log(`  ${fault}: ${line}`);
  assert(moved.length > 0, `no viewer through nginx was on cuecast2 (nothing to recover)`);
  assert(bad.length === 0, `failed requests: ${bad.map((r) => `+${r.at} ms: ${r.why}`).join('; ')}`);
  assert(slowest.ms < RECOVERY_MS, `a request took ${slowest.ms} ms`);
  assert(
    backMs.every((n) => n > 0 && n < RECOVERY_MS),
    `viewers back after ${backMs.join(', ')} ms`,
  );
  return `slowest request ${slowest.ms} ms, viewers back within ${backMs.length ? Math.max(...backMs) : 0} ms of the ${fault}`;
}

/**
 * Wait until cuecast2 answers its own `/healthz` with 200 (on its published port), at most `ms`: ready for
 * traffic. Docker's health status (its check runs `node -e fetch(…)` every 5 s with 3 s to answer, which a
 * loaded machine can miss) is reported, not waited for: nginx does not read it.
 */
async function readyAgain(ms = 60_000): Promise<string> {
  const t = Date.now();
  for (;;) {
    const ok = await fetch(`${URL2}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return `its /healthz answered 200 after ${Date.now() - t} ms (Docker's health status: ${await health('cuecast2')})`;
    if (Date.now() - t > ms) throw new Error(`cuecast2's /healthz did not answer 200 within ${ms / 1000} s (Docker: ${await health('cuecast2')})`);
    await sleep(250);
  }
}

/**
 * After a fault is over: requests through nginx reach cuecast2 again (nginx's access log names the upstream that
 * answered), within 20 s; new viewers through nginx too. Returns how long after `since` the first one did.
 */
async function trafficReturns(since: number): Promise<string> {
  const ip = await addressOf('cuecast2');
  assert(ip, 'cuecast2 has no address');
  const until = Date.now() + 20_000;
  const extra: Client[] = [];
  try {
    for (;;) {
      // Two reads and a websocket each round: round robin over the two instances then sends each kind to both.
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${URL_LB}/api/matches/${matchId}`, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
      }
      // A websocket through nginx, closed at once: nginx logs it (status 101) when it closes.
      const sock: Client = io(URL_LB, { transports: ['websocket'], forceNew: true, reconnection: false });
      extra.push(sock);
      await new Promise<void>((ok) => sock.once('connect', () => ok()).once('connect_error', () => ok()));
      sock.close();
      await sleep(100);
      const lines = (await lbLogSince(since)).filter((l) => l.includes(`upstream=${ip}:3000`));
      const api = lines.filter((l) => l.includes('"GET /api/') && / 200 /.test(l));
      const ws = lines.filter((l) => l.includes('"GET /socket.io/') && / 101 /.test(l));
      if (api.length && ws.length)
        return `requests and websockets through nginx reach cuecast2 (${ip}) again after ${Date.now() - since} ms (${api.length} requests, ${ws.length} websockets so far)`;
      if (Date.now() > until) throw new Error(`no traffic reached cuecast2 (${ip}) within 20 s: ${api.length} requests, ${ws.length} websockets`);
      await sleep(250);
    }
  } finally {
    for (const sock of extra) sock.close();
  }
}

await check(`one instance stops: requests through nginx and viewers recover within ${RECOVERY_MS / 1000} s`, async () => {
  const detail = await failover('stop', 6000);
  exitCode = await run(`docker inspect --format '{{.State.ExitCode}}' ${containerOf('cuecast2')}`);
  console.log(`  stop: docker stop took ${(stopMs / 1000).toFixed(1)} s, exit code ${exitCode}; ${shutdownOf('cuecast2')}`);
  return detail;
});

await check('the stopped instance shut down gracefully (exit code 0)', async () => {
  assert(exitCode === '0', `exit code ${exitCode}`);
  return `docker stop took ${(stopMs / 1000).toFixed(1)} s; ${shutdownOf('cuecast2')}`;
});

await check('the stopped instance starts again, answers, and traffic reaches it', async () => {
  const t = Date.now();
  await run(`docker start ${containerOf('cuecast2')}`);
  const ready = await readyAgain();
  return `${ready}; ${await trafficReturns(t)}`;
});

let restartsBefore = 0;
await check(`one instance is killed (kill -9): requests and viewers recover within ${RECOVERY_MS / 1000} s`, async () => {
  restartsBefore = Number(await run(`docker inspect --format '{{.RestartCount}}' ${containerOf('cuecast2')}`));
  return failover('kill', 6000);
});

await check('the killed instance is restarted by Docker, answers again, and traffic reaches it', async () => {
  const t = Date.now();
  const ready = await readyAgain();
  const restarts = Number(await run(`docker inspect --format '{{.RestartCount}}' ${containerOf('cuecast2')}`));
  assert(restarts === restartsBefore + 1, `restart count ${restartsBefore} → ${restarts}`);
  const traffic = await trafficReturns(t);
  recoveries.kill += `; restarted by Docker (restart count ${restarts}), ${ready}; ${traffic}`;
  return `restart count ${restarts}; ${ready}; ${traffic}`;
});

let frozen = false;
await check(`one instance freezes (docker pause, else SIGSTOP): requests and viewers recover within ${RECOVERY_MS / 1000} s`, async () => {
  frozen = true;
  return failover('freeze', 6000);
});

await check('the frozen instance is unpaused and traffic reaches it again', async () => {
  const t = Date.now();
  await unfreeze();
  frozen = false;
  const ready = await readyAgain();
  const traffic = await trafficReturns(t);
  recoveries.freeze += `; frozen by ${freezeHow}; ${ready}; ${traffic}`;
  return `${ready}; ${traffic}`;
});
if (frozen && freezeHow) {
  try {
    await unfreeze();
  } catch {
    /* the teardown removes it anyway */
  }
}

for (const x of viewers) x.socket.close();
scorer.close();

await check('down / up keeps the match', async () => {
  compose('down');
  compose('up -d --no-build');
  await readIds();
  await allHealthy(['redis', 'cuecast1', 'cuecast2', 'lb']);
  const res = await api(URL_LB, `/api/matches/${matchId}`);
  assert(res.status === 200 && res.body.version === version, `${res.status} version ${res.body?.version}, wanted ${version}`);
  const rec = await api(URL_LB, `/api/matches/${matchId}/steps`, {
    token: scorerToken,
    body: { stepId: 'after-up', expectedVersion: version, step: steps[stepNo] },
  });
  assert(rec.status === 201 && rec.body.version === version + 1, `record after up: ${rec.status} ${JSON.stringify(rec.body)}`);
  const volumes = sh('docker volume ls -q').split('\n').filter(Boolean);
  assert(volumes.length === 1, `volumes after down/up: ${volumes.join(', ')}`);
  return `version ${version} kept, the scorer token still records (version ${version + 1}); volumes: ${volumes.join(', ')}`;
});

await check('published beyond loopback without ADMIN_TOKEN, compose refuses to start (publish-check says why)', async () => {
  // Another project on another port, the user's compose file alone: nothing of it may start.
  const other = `${PROJECT}guard`;
  const env = `CUECAST_BIND=0.0.0.0 CUECAST_PORT=${Number(new URL(URL_LB).port) + 10} ADMIN_TOKEN=`;
  const up = (() => {
    try {
      return { ok: true, out: sh(`${env} docker-compose -p ${other} -f docker-compose.yml up -d --no-build 2>&1`) };
    } catch (err) {
      return { ok: false, out: `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}` };
    }
  })();
  try {
    const why = sh(`${env} docker-compose -p ${other} -f docker-compose.yml logs --no-color publish-check 2>&1`);
    const running = sh(`docker ps -q --filter label=com.docker.compose.project=${other}`);
    assert(!up.ok, `compose up succeeded: ${up.out}`);
    assert(why.includes('refusing to start') && why.includes('ADMIN_TOKEN'), `publish-check said: ${why}`);
    assert(running === '', `containers of ${other} running: ${running}`);
    return `up failed (${
      up.out
        .split('\n')
        .filter((l) => l.includes('ERROR'))
        .join(' / ') || 'exit code ≠ 0'
    }); publish-check: ${why.split('|').pop()!.trim()}`;
  } finally {
    sh(`${env} docker-compose -p ${other} -f docker-compose.yml down -v --remove-orphans 2>&1 || true`);
  }
});

await check('Redis runs with maxmemory under its container limit and noeviction', async () => {
  const max = Number(sh(`docker exec ${containerOf('redis')} redis-cli config get maxmemory`).split('\n')[1]);
  const policy = sh(`docker exec ${containerOf('redis')} redis-cli config get maxmemory-policy`).split('\n')[1];
  const limit = Number(sh(`docker inspect --format '{{.HostConfig.Memory}}' ${containerOf('redis')}`));
  assert(max > 0 && max < limit && policy === 'noeviction', `maxmemory ${max}, policy ${policy}, container limit ${limit}`);
  return `maxmemory ${Math.round(max / 2 ** 20)} MB (container limit ${Math.round(limit / 2 ** 20)} MB), ${policy}`;
});

for (const [fault, text] of Object.entries(recoveries)) console.log(`recovery after ${fault}: ${text}`);
console.log(`stack test: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
