/**
 * `npm run demo`: rehearse the overlay. Against a RUNNING cuecast server (it starts nothing), create a match
 * and play a plausible, seeded match through the public REST API, exactly as a scorer's Stream Deck would:
 * `POST /api/matches`, then `POST /api/matches/:id/steps` with the scorer token, a step id and the
 * expected version for every step. The steps come from the engine's simulator (`shared/simulate.ts`), so
 * every one is legal; the same seed plays the same match.
 *
 *   npm run demo -- [--url http://localhost:3000] [--discipline 14-1|rotation] [--seed N]
 *                   [--speed <steps per second> | --delay <ms>] [--race N] [--players "Ann,Bob"]
 *                   [--ruleset nba|wpa] [--skill 0..1] [--admin-token T]
 *
 * Prints the overlay, dashboard, spectator and scorer URLs first. Exit codes: 0 match played to the end,
 * 1 the server refused something or went away, 2 bad flags or server not reachable.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { applyStep, newMatch, replay, type Match } from '../shared/index';
import { parseSetup } from '../server/protocol/setup-schemas';
import type { SetupInput } from '../shared/protocol/setup';
import type { MatchState } from '../shared/protocol/state';
import type { Step } from '../shared/protocol/steps';
import { caption } from '../web/src/lib/format';
import { plausibleStep, seededRandom } from '../shared/simulate';

const HELP = `cuecast demo: plays a seeded, plausible match against a running cuecast server.

  npm run demo -- [options]

  --url <url>             server (default http://localhost:3000; start one with npm start)
  --discipline <d>        14-1 (race to 100) or rotation (race to 120); default 14-1
  --race <n>              points to win (default 100 for 14-1, 120 for Rotation)
  --seed <n>              the same seed plays the same match (default: random, printed)
  --speed <n>             steps per second (default 1); "max" = as fast as the server's rate limit allows
  --delay <ms>            milliseconds between steps (instead of --speed)
  --players <a,b>         player names (default "Demo Ann,Demo Bob")
  --ruleset <r>           14-1 ruleset nba or wpa (default nba)
  --skill <0..1>          chance a shot pockets a ball (default 0.75)
  --admin-token <t>       when the server has ADMIN_TOKEN set (or set ADMIN_TOKEN in the environment)
  -h, --help              this text
`;

class DemoError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

interface Options {
  url: string;
  setup: SetupInput;
  seed: number;
  delayMs: number;
  skill: number;
  adminToken?: string;
}

/** Parse the command line into options. @throws DemoError(2) naming the bad flag. */
function options(argv: string[]): Options | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string', default: 'http://localhost:3000' },
      discipline: { type: 'string', default: '14-1' },
      race: { type: 'string' },
      seed: { type: 'string' },
      speed: { type: 'string' },
      delay: { type: 'string' },
      players: { type: 'string', default: 'Demo Ann,Demo Bob' },
      ruleset: { type: 'string', default: 'nba' },
      skill: { type: 'string', default: '0.75' },
      'admin-token': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return null;
  const bad = (flag: string, why: string): never => {
    throw new DemoError(`--${flag}: ${why}\n\n${HELP}`, 2);
  };
  const d = values.discipline.toLowerCase();
  if (d !== '14-1' && d !== 'rotation') bad('discipline', `must be 14-1 or rotation, got "${values.discipline}"`);
  const discipline = d as '14-1' | 'rotation';
  const race = values.race === undefined ? (discipline === '14-1' ? 100 : 120) : Number(values.race);
  if (!Number.isInteger(race) || race < 1 || race > 10000) bad('race', `must be an integer 1-10000, got "${values.race}"`);
  const seed = values.seed === undefined ? randomBytes(4).readUInt32BE(0) % 1_000_000 : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) bad('seed', `must be a non-negative integer, got "${values.seed}"`);
  let delayMs = 1000;
  if (values.delay !== undefined && values.speed !== undefined) bad('speed', 'give --speed or --delay, not both');
  if (values.delay !== undefined) {
    delayMs = Number(values.delay);
    if (!Number.isFinite(delayMs) || delayMs < 0) bad('delay', `must be milliseconds ≥ 0, got "${values.delay}"`);
  } else if (values.speed !== undefined) {
    if (values.speed === 'max') delayMs = 0;
    else {
      const sps = Number(values.speed);
      if (!Number.isFinite(sps) || sps <= 0) bad('speed', `must be steps per second > 0 or "max", got "${values.speed}"`);
      delayMs = 1000 / sps;
    }
  }
  const players = values.players.split(',').map((s) => s.trim());
  if (players.length !== 2 || players.some((p) => !p)) bad('players', `must be two names separated by a comma, got "${values.players}"`);
  const ruleset = values.ruleset.toLowerCase();
  if (ruleset !== 'nba' && ruleset !== 'wpa') bad('ruleset', `must be nba or wpa, got "${values.ruleset}"`);
  const skill = Number(values.skill);
  if (!(skill >= 0 && skill <= 1)) bad('skill', `must be a number 0..1, got "${values.skill}"`);
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    return bad('url', `not a URL: "${values.url}"`);
  }
  const setup: SetupInput =
    discipline === '14-1'
      ? { discipline, ruleset: ruleset as 'nba' | 'wpa', players: [players[0]!, players[1]!], targets: [race, race] }
      : { discipline, players: [players[0]!, players[1]!], targets: [race, race] };
  parseSetup(setup); // the engine's own validation, before touching the server
  return {
    url: url.origin,
    setup,
    seed,
    delayMs,
    skill,
    adminToken: values['admin-token'] ?? (process.env.ADMIN_TOKEN || undefined),
  };
}

interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** One JSON request; network failures become a DemoError saying the server is not reachable. */
async function request(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<Reply> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw new DemoError(
      `cannot reach the cuecast server at ${base} (${cause}).\n` + `Start one in another terminal with \`npm start\`, or point the demo at yours with --url.`,
      2,
    );
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text for the error message
  }
  return { status: res.status, body, headers: res.headers };
}

const errorText = (r: Reply) =>
  typeof r.body === 'object' && r.body?.error ? `${r.body.error.code}: ${r.body.error.message}` : `HTTP ${r.status} ${String(r.body).slice(0, 200)}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds to wait after a 429, from the RateLimit header (draft-8 `t=`) or Retry-After; default 5. */
function retryAfter(h: Headers): number {
  const t = /t=(\d+)/.exec(h.get('ratelimit') ?? '')?.[1] ?? h.get('retry-after');
  const n = Number(t);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 60) : 5;
}

/** One line per step for the terminal. */
function line(n: number, s: MatchState): string {
  const [a, b] = s.names;
  const score = `${a} ${s.score[0]} – ${s.score[1]} ${b}`;
  const who = s.names[s.turn === 'A' ? 0 : 1];
  const extra = s.winner ? '' : `  run ${s.run}, ${who} at the table${s.awaiting ? `, ${who} decides (${s.awaiting})` : ''}`;
  return `#${String(n).padStart(3)}  ${score}  rack ${s.rack}  ${caption(s, 'en')}${extra}`;
}

async function main(): Promise<void> {
  const opt = options(process.argv.slice(2));
  if (!opt) {
    process.stdout.write(HELP);
    return;
  }
  const health = await request(opt.url, '/healthz');
  if (health.status !== 200) {
    throw new DemoError(
      `the server at ${opt.url} answered /healthz with ${health.status} (${JSON.stringify(health.body)}); is it a cuecast server, and is its Redis up?`,
      2,
    );
  }

  const created = await request(opt.url, '/api/matches', { body: opt.setup, token: opt.adminToken });
  if (created.status === 401 || created.status === 403) {
    throw new DemoError(
      `the server refused to create a match (${errorText(created)}).\nIt has ADMIN_TOKEN set: pass --admin-token <token> (or set ADMIN_TOKEN).`,
      2,
    );
  }
  if (created.status !== 201) throw new DemoError(`creating the match failed: ${errorText(created)}`);
  const { id, scorerToken, urls } = created.body as { id: string; scorerToken: string; urls: Record<string, string> };
  const race = opt.setup.targets![0];
  console.log(
    `cuecast demo: ${opt.setup.discipline === '14-1' ? `14-1 (${opt.setup.ruleset?.toUpperCase()})` : 'Rotation'}, race to ${race}, seed ${opt.seed}`,
  );
  console.log(`  overlay (OBS, 1920×1080): ${urls.overlay}`);
  console.log(`  dashboard:                ${urls.dashboard}`);
  console.log(`  spectators:               ${urls.watch}`);
  console.log(`  scorer:                   ${urls.scorer}`);
  console.log(`  replay this match:        npm run demo -- --discipline ${opt.setup.discipline} --race ${race} --seed ${opt.seed}`);
  console.log(
    opt.delayMs > 0 ? `Playing ${(1000 / opt.delayMs).toFixed(2)} steps per second (Ctrl+C stops).` : 'Playing as fast as the server allows (Ctrl+C stops).',
  );

  const setup = parseSetup(opt.setup);
  const rand = seededRandom(opt.seed);
  let match: Match = newMatch(setup);
  let version = 0;
  let n = 0;
  let stopped = false;
  process.once('SIGINT', () => {
    stopped = true;
    console.log(`\nstopped after ${n} steps; the match stays on the server: ${urls.overlay}`);
  });

  while (!stopped && !match.core.winner) {
    if (n > 0 && opt.delayMs > 0) await sleep(opt.delayMs);
    if (stopped) break;
    const step: Step = plausibleStep(match, rand, opt.skill);
    const local = applyStep(match, step);
    if (!local.ok) throw new DemoError(`internal: the simulator proposed a step the engine refuses (${local.error.message})`);
    const stepId = `demo-${opt.seed}-${id}-${n + 1}`;
    for (;;) {
      const r = await request(opt.url, `/api/matches/${id}/steps`, { token: scorerToken, body: { stepId, expectedVersion: version, step } });
      if (r.status === 201 || r.status === 200) {
        version = r.body.version;
        match = local.match;
        n++;
        console.log(line(n, r.body.state as MatchState));
        break;
      }
      if (r.status === 429) {
        const s = retryAfter(r.headers);
        console.log(`  (rate limited by the server; retrying the same step in ${s} s)`);
        await sleep(s * 1000);
        continue; // same stepId: the server records it once
      }
      if (r.status === 409 && r.body?.error?.code === 'stale') {
        // Another scorer recorded in between: take the server's log as the truth and carry on from it.
        const log = await request(opt.url, `/api/matches/${id}/steps`);
        if (log.status !== 200) throw new DemoError(`resync failed: ${errorText(log)}`);
        match = replay(
          setup,
          (log.body.steps as { step: Step }[]).map((e) => e.step),
        );
        version = log.body.version;
        console.log(`  (someone else recorded a step; resynced at version ${version})`);
        break;
      }
      throw new DemoError(`the server refused step ${n + 1} ${JSON.stringify(step)}: ${errorText(r)}`);
    }
  }
  if (stopped) return;
  const final = await request(opt.url, `/api/matches/${id}`);
  const s = final.body.state as MatchState;
  const w = s.winner === 'A' ? 0 : 1;
  console.log(`${s.names[w]} wins ${s.score[w]}–${s.score[1 - w]} after ${n} steps (high runs ${s.highRun[0]} / ${s.highRun[1]}).`);
  console.log(`  score sheet: ${opt.url}/api/matches/${id}/sheet.csv`);
}

main().catch((err: unknown) => {
  if (err instanceof DemoError) {
    console.error(`demo: ${err.message}`);
    process.exit(err.exitCode);
  }
  if (err instanceof Error && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`demo: ${err.message}\n\n${HELP}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
