/**
 * REST API (JSON):
 * - `POST /api/matches` set-up (with an optional shot clock `clock`: `{preset}` or `{settings}`) → 201 `{id, scorerToken, version, rulesVersion, setup, state, urls}` (needs the admin token when set;
 *   at most `matchesPerHour` matches and events created per client address, by this route and the event routes
 *   that create, else 429 `rate-limited`);
 * - `GET /api/matches` latest summaries; `GET /api/matches/:id` `{id, version, rulesVersion, setup, state, stats}`;
 * - `GET /api/matches/:id/steps` the log `{id, version, steps: [{version, stepId, at, step}]}`;
 *   `GET /api/matches/:id/sheet.csv` the score sheet; `GET /api/matches/:id/odds.json` what it takes, with the
 *   players' earlier matches of the event (server/transport/http/odds-api.ts);
 * - `GET /api/matches/:id/scorer-check` with `Authorization: Bearer <scorerToken>` → `{valid: true}` or
 *   `{valid: false, reason: 'no-token' | 'wrong-token'}` (never the token); 404 for an unknown match;
 * - `POST /api/matches/:id/steps` `Authorization: Bearer <scorerToken>`, body `{stepId, expectedVersion?, step, protocol?}`
 *   (`RecordBody`, checked by the same envelope parse as the Socket.IO `record`)
 *   → `{matchId, version, state, stats?, duplicate?}` (201 new with `stats` = what changed in the statistics
 *   (`StatsDelta`), 200 retried stepId with the same step: the state after the original step, no `stats`),
 *   409 `{error, currentVersion}` when stale, 409 `step-id-reused` for a recorded stepId with another step,
 *   400 `invalid-request` for a bad envelope (stepId, expectedVersion, a non-object or non-JSON body),
 *   400 `invalid-step` for a bad step, 400 `protocol-mismatch` for a `protocol` other than PROTOCOL_VERSION.
 * - deprecated for one version (protocol 4), answering with a `Deprecation: true` header and a `Link` to the
 *   new path: `GET /api/matches/:id/events` (the log as `events` with `eventId`) and `POST /api/matches/:id/events`
 *   (the same as `…/steps`); the body's `eventId` is accepted as the old name of `stepId` on both paths;
 * - the event routes of server/transport/http/events-api.ts (`/api/events…`);
 * - the tables' data feeds of server/transport/http/feed-api.ts (`/api/events/:id/tables/:table/feed.json|xml`);
 * - the sponsors' logos of server/transport/http/sponsors-api.ts (`/api/events/:id/sponsors…`);
 * - the draws of server/transport/http/draws-api.ts (`/api/events/:id/draw…`);
 * - results, roster import and webhooks of server/transport/http/results-api.ts (`/api/events/:id/results.csv|json`,
 *   `…/players/import`, `…/webhooks`).
 * - the production assistant's highlights, chapters, talking points and stream start of server/transport/http/assistant-api.ts.
 * Errors are `{error: {code, message, field?}}` with the status of `statusOf`.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Logger } from 'pino';
import { RulesError } from '../../../shared/protocol/errors';
import type { EventService } from '../../events/service';
import type { MatchService } from '../../matches/service';
import { secretEquals } from '../../tokens';
import { recordBodySchema } from '../../protocol/wire-schemas';
import { storeErrorOf } from '../../storage/store-errors';
import { parseEnvelope, refuseForbiddenKey } from '../../matches/validate';
import { sheetCsv } from './csv';
import { sendError } from './errors';
import { eventRoutes } from './events-api';
import { shotClockRoutes } from './shot-clock-api';
import { parseClockChoice } from '../../protocol/shot-clock-schemas';
import type { ShotClockSettings } from '../../../shared/shot-clock';
import type { ShotClockService } from '../../shot-clock/service';
import { feedRoutes } from './feed-api';
import { oddsRoutes } from './odds-api';
import { drawRoutes } from './draws-api';
import { lanRoutes } from './lan';
import type { DrawService } from '../../draws/service';
import type { ResultsService } from '../../results/service';
import type { WebhookService } from '../../webhooks/service';
import { resultsRoutes } from './results-api';
import { sponsorRoutes, sponsorUploadRoute } from './sponsors-api';
import { assistantRoutes } from './assistant-api';
import { AssistantService } from '../../assistant/service';
import { SAFE_ID, TABLE_ID } from '../../../shared/protocol/limits';

export interface ApiOptions {
  /** The address the server listens on (`GET /api/lan`: no LAN address is offered while it is a loopback one). */
  listenHost?: () => string | undefined;
  matches: MatchService;
  /** Shot clocks (server/transport/http/shot-clock-api.ts). */
  shotClocks: ShotClockService;
  /** Events and tables (server/transport/http/events-api.ts). */
  events: EventService;
  /** The events' draws (server/transport/http/draws-api.ts). */
  draws: DrawService;
  /** An event's results (server/transport/http/results-api.ts). */
  results: ResultsService;
  /** The events' webhooks (server/transport/http/results-api.ts). */
  webhooks: WebhookService;
  log: Logger;
  adminToken?: string;
  /** Requests per minute per client address on /api. */
  requestsPerMinute: number;
  /** Matches and events created per hour per client address, all creating routes together (failed attempts do not count). */
  matchesPerHour: number;
  /** Largest JSON body, bytes. */
  bodyLimitBytes: number;
  /** The production assistant (server/transport/http/assistant-api.ts); default one over `matches` and `events`. */
  assistant?: AssistantService;
}

/**
 * The body of `POST /api/matches`: the set-up, and the optional shot clock `clock` taken out of it and checked
 * (`parseClockChoice`; null: none or `off`).
 * @throws RulesError `invalid-setup` naming `clock.<field>`.
 */
export function splitClock(body: unknown): { setup: unknown; clock: ShotClockSettings | null } {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('clock' in body)) return { setup: body, clock: null };
  const { clock, ...setup } = body as Record<string, unknown>;
  return { setup, clock: parseClockChoice(clock, 'clock', 'invalid-setup') };
}

/** Token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearer(req: Request): string | undefined {
  const h = req.get('authorization');
  const m = h && /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : undefined;
}

/** The `/api` router. */
export function apiRouter(opts: ApiOptions): Router {
  const { matches, log } = opts;
  const r = express.Router();
  r.use(
    rateLimit({
      windowMs: 60_000,
      limit: opts.requestsPerMinute,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      handler: (_req, res) => sendError(res, { code: 'rate-limited', message: `over ${opts.requestsPerMinute} requests per minute; slow down` }),
    }),
  );
  // An id or table the server could never have made is a bad request, not an unknown one (and is not echoed back).
  // The field is the id's name in the rest of the API: `matchId` or `eventId`.
  r.param('id', (req, res, next, id: string) => {
    if (SAFE_ID.test(id)) return next();
    const field = req.path.startsWith('/events') ? 'eventId' : 'matchId';
    sendError(res, { code: invalidCode(req), message: `${field}: must be 1 to 64 of A–Z, a–z, 0–9, _ and - (got ${id.length} characters)`, field });
  });
  r.param('table', (req, res, next, table: string) =>
    TABLE_ID.test(table)
      ? next()
      : sendError(res, {
          code: invalidCode(req),
          message: `table: must be 1 to 32 of a–z, 0–9 and -, starting with a letter or digit (got ${table.length} characters)`,
          field: 'table',
        }),
  );
  // A sponsor's logo is uploaded as the raw body: its route reads it before the JSON parser.
  sponsorUploadRoute(r, opts.events, bearer);
  r.use(express.json({ limit: opts.bodyLimitBytes, strict: false }));
  // A `__proto__` / `constructor` / `prototype` key anywhere in a body is refused by name (schemas would drop it silently).
  r.use((req, res, next) => {
    const code = invalidCode(req);
    // A set-up body's fields are the set-up's (`setup.options.constructor`), but for its shot clock (`clock.…`).
    const fieldOf = code === 'invalid-setup' ? (path: string) => (path.split('.')[0] === 'clock' ? path : `setup.${path}`) : undefined;
    const refused = req.body === undefined ? null : refuseForbiddenKey(req.body, code, 'step', fieldOf);
    if (refused) return sendError(res, refused.error);
    next();
  });
  // A body the JSON parser left alone (sent as text/plain, a form, or with no Content-Type): say so, rather
  // than "expected object, received undefined" further on. A change without a body (a card button) passes.
  r.use((req, res, next) => {
    if (req.body !== undefined || !hasBody(req)) return next();
    sendError(res, {
      code: invalidCode(req),
      message: `body: not sent as JSON (send it with Content-Type: application/json; got ${req.get('content-type') ?? 'none'})`,
      field: 'body',
    });
  });

  // Counted per address like the limit above (req.ip: behind TRUST_PROXY from X-Forwarded-For; IPv6 per /56).
  // One budget for every path that creates a match or an event: `POST /matches`, `POST /events` and
  // `POST /events/:id/tables/:table/matches` (one middleware, so one count per address).
  const creations = rateLimit({
    windowMs: 60 * 60_000,
    limit: opts.matchesPerHour,
    skipFailedRequests: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) =>
      sendError(res, {
        code: 'rate-limited',
        message: `over ${opts.matchesPerHour} matches and events created per hour from this address; retry later (Retry-After)`,
      }),
  });

  r.post('/matches', creations, async (req, res) => {
    if (opts.adminToken !== undefined) {
      const token = bearer(req);
      if (token === undefined)
        return sendError(res, { code: 'unauthorized', message: 'creating a match needs the admin token (Authorization: Bearer …)', field: 'token' });
      if (!secretEquals(token, opts.adminToken)) return sendError(res, { code: 'forbidden', message: 'wrong admin token', field: 'token' });
    }
    try {
      // `clock` (optional: `{preset}` or `{settings}`) is checked before anything is made and applied before the
      // match is handed out, so a bad clock makes no match and a made match has the clock it was asked with.
      const { setup, clock } = splitClock(req.body);
      const created = await matches.create(setup, ['clock']);
      if (clock) await opts.shotClocks.applyNew(created.id, clock);
      const base = `${req.protocol}://${req.host}`;
      const id = created.id;
      res.status(201).json({
        id,
        scorerToken: created.scorerToken,
        version: created.snapshot.version,
        rulesVersion: created.rulesVersion,
        setup: created.setup,
        state: created.snapshot.state,
        urls: {
          scorer: `${base}/scorer/${id}#token=${created.scorerToken}`,
          overlay: `${base}/overlay/${id}`,
          dashboard: `${base}/dashboard/${id}`,
          watch: `${base}/watch/${id}`,
        },
      });
    } catch (err) {
      if (err instanceof RulesError) return sendError(res, err.toJSON());
      throw err;
    }
  });

  r.get('/matches', async (_req, res) => {
    res.json({ matches: await matches.list(100) });
  });

  r.get('/matches/:id', async (req, res) => {
    const cur = await matches.current(req.params.id);
    if (!cur) return notFound(res, req.params.id);
    const { snapshot, setup, rulesVersion } = cur;
    const clock = await opts.shotClocks.view(req.params.id);
    res.json({
      id: snapshot.matchId,
      version: snapshot.version,
      rulesVersion,
      setup,
      state: snapshot.state,
      stats: snapshot.stats,
      clock: clock.ok ? clock.clock : null,
    });
  });

  r.get('/matches/:id/steps', async (req, res) => {
    const log = await matches.steps(req.params.id);
    if (!log) return notFound(res, req.params.id);
    res.json({
      id: req.params.id,
      version: log.version,
      steps: log.steps.map((e, i) => ({ version: i + 1, stepId: e.stepId, at: e.at, step: e.step })),
    });
  });

  // Deprecated (protocol 3 names, kept for one version): the log as `events` with each step's `eventId`.
  r.get('/matches/:id/events', async (req, res) => {
    const log = await matches.steps(req.params.id);
    if (!log) return notFound(res, req.params.id);
    deprecated(res, `/api/matches/${req.params.id}/steps`);
    res.json({
      id: req.params.id,
      version: log.version,
      events: log.steps.map((e, i) => ({ version: i + 1, eventId: e.stepId, at: e.at, step: e.step })),
    });
  });

  r.get('/matches/:id/sheet.csv', async (req, res) => {
    const cur = await matches.current(req.params.id);
    if (!cur) return notFound(res, req.params.id);
    res.type('text/csv; charset=utf-8').attachment(`cuecast-${req.params.id}-sheet.csv`).send(sheetCsv(cur.setup, cur.snapshot.stats.sheet));
  });

  r.get('/matches/:id/scorer-check', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = bearer(req);
    const valid = await matches.tokenValid(req.params.id, token ?? '');
    if (valid === null) return notFound(res, req.params.id);
    res.json(valid ? { valid } : { valid, reason: token === undefined ? 'no-token' : 'wrong-token' });
  });

  /** Record a step (the body's `eventId` is taken as the deprecated name of `stepId`). */
  const recordStep = async (req: Request<{ id: string }>, res: Response): Promise<void> => {
    const token = bearer(req);
    if (token === undefined)
      return sendError(res, { code: 'unauthorized', message: 'recording needs the scorer token (Authorization: Bearer …)', field: 'token' });
    const body = parseEnvelope(recordBodySchema, req.body, 'body');
    if (!body.ok) return sendError(res, body.error);
    const result = await matches.record(req.params.id, token, body.value);
    if (!result.ok) {
      return sendError(res, result.error, result.currentVersion === undefined ? {} : { currentVersion: result.currentVersion });
    }
    const { matchId, version, state, stats } = result;
    res.status(result.duplicate ? 200 : 201).json({ matchId, version, state, ...(stats ? { stats } : {}), ...(result.duplicate ? { duplicate: true } : {}) });
  };
  r.post('/matches/:id/steps', recordStep);
  // Deprecated alias of `POST /matches/:id/steps` for one version.
  r.post('/matches/:id/events', (req, res) => {
    deprecated(res, `/api/matches/${req.params.id}/steps`);
    return recordStep(req, res);
  });

  eventRoutes(r, { events: opts.events, adminToken: opts.adminToken, creations }, bearer);
  shotClockRoutes(r, opts.shotClocks, opts.events, bearer);
  feedRoutes(r, { events: opts.events, matches: opts.matches, shotClocks: opts.shotClocks });
  oddsRoutes(r, { events: opts.events, matches: opts.matches });
  sponsorRoutes(r, opts.events, bearer);
  drawRoutes(r, opts.draws, bearer);
  resultsRoutes(r, { events: opts.events, results: opts.results, webhooks: opts.webhooks }, bearer);
  assistantRoutes(r, opts.assistant ?? new AssistantService({ matches, events: opts.events }), opts.events, bearer);
  lanRoutes(r, opts.listenHost);

  r.use((req, res) => sendError(res, { code: 'not-found', message: `no API route ${req.method} ${req.baseUrl}${req.path}` }));

  r.use((err: Error & { type?: string; status?: number }, req: Request, res: Response, _next: NextFunction) => {
    const invalid = invalidCode(req);
    if (err.type === 'entity.too.large') return sendError(res, { code: 'too-large', message: `body: over ${opts.bodyLimitBytes} bytes`, field: 'body' });
    if (err.type === 'entity.parse.failed') return sendError(res, { code: invalid, message: 'body: not valid JSON', field: 'body' });
    // A %-escape in the address that does not decode (`/api/matches/%E0`): the path is at fault, not the body.
    if (err instanceof URIError) return sendError(res, { code: invalid, message: 'path: the address has a malformed %-escape', field: 'path' });
    if (err.status && err.status >= 400 && err.status < 500) return sendError(res, { code: invalid, message: `body: ${err.message}`, field: 'body' });
    // The store refused (disk full, a damaged record, …): nothing was changed; said with its cause (and logged by the store's health).
    const known = storeErrorOf(err);
    if (known) return sendError(res, known);
    log.error({ err: err.message, path: req.path }, 'request failed');
    sendError(res, { code: 'internal', message: 'internal error' });
  });
  return r;
}

/** The code of a refused body or address on `req`'s route: the set-up of a new match, an event body, else the request envelope (never the step alone). */
function invalidCode(req: Request): 'invalid-setup' | 'invalid-event' | 'invalid-request' {
  return req.method === 'POST' && req.path === '/matches' ? 'invalid-setup' : req.path.startsWith('/events') ? 'invalid-event' : 'invalid-request';
}

/** True when the request carries a body (a length above 0, or a chunked one). */
function hasBody(req: Request): boolean {
  return Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
}

/** Mark a response of a deprecated path: `Deprecation: true` and a `Link` to `successor` (RFC 9745, RFC 8288). */
function deprecated(res: Response, successor: string): void {
  res.setHeader('Deprecation', 'true');
  res.setHeader('Link', `<${successor}>; rel="successor-version"`);
}

function notFound(res: Response, id: string): void {
  sendError(res, { code: 'not-found', message: `matchId: no match "${id}"`, field: 'matchId' });
}
