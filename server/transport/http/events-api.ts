/**
 * REST routes of events (added to the `/api` router, so they share its rate limit, body cap and errors).
 * Reading is public; every change needs the event's organiser token (`Authorization: Bearer <token>`),
 * which `POST /api/events` returns once. Bodies are strict (an unknown field is refused by name) and may
 * carry `expectedVersion` (the change applies only at that event version, else 409 `stale`).
 * - `POST /api/events` (admin token when set) → 201 `{id, organiserToken, event, urls}`; with an
 *   `Idempotency-Key` header (8–128 of `A–Z a–z 0–9 _ -`) a repeat of the same key within 10 minutes answers the
 *   first creation's 201 again instead of making another event (./idempotency.ts; kept per server instance);
 * - `GET /api/events`; `GET /api/events/:id`; `GET /api/events/:id/organiser-check` → `{valid, reason?}`;
 * - `PATCH /api/events/:id`; `POST /api/events/:id/players`; `PATCH|DELETE /api/events/:id/players/:playerId`;
 * - `POST /api/events/:id/tables`; `GET /api/events/:id/tables/:table`;
 * - `POST /api/events/:id/tables/:table/matches` (a new match for the table) → 201 `{match, event, table}`; this
 *   and `POST /api/events` count against the creation budget of `POST /api/matches` (MATCHES_PER_HOUR);
 *   a next match made here and replaced or cleared before it started is removed unless a step was recorded;
 * - `POST /api/events/:id/tables/:table/assign` `{matchId, start?}`; `POST …/start`; `DELETE …/next`;
 * - `POST /api/events/:id/tables/:table/undo-start`: the last start undone within 5 minutes (the match it took
 *   off back on the table; `nothing-to-undo` naming `table` otherwise);
 * - `POST /api/events/:id/tables/:table/cards/:action` (a button box: no body needed) → `{table}`;
 * - `POST /api/events/:id/tables/:table/scorer-token` (no body needed) → 201 `{scorerToken, url}`: the table's
 *   scorer token (issue 27 §4; shown once, a new one replaces the old) and the tablet's address
 *   `/scorer/table/<eventId>/<table>#token=…`; `DELETE` the same path revokes it → `{event}`.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { CARD_ACTIONS, type CardAction, type EventInfo } from '../../../shared/protocol/event';
import {
  assignSchema,
  eventPatchSchema,
  parseEventBody,
  playerPatchSchema,
  playersAddSchema,
  tableAddSchema,
  tableMatchSchema,
  versionOnlySchema,
  noBodySchema,
} from '../../protocol/event-schemas';
import { checkDefaults, findTable, publicInfo, tableStateOf, withoutNext, withPlayerPatch, withPlayers, withTable } from '../../events/event-docs';
import { eventNotFound, type Changed, type EventService } from '../../events/service';
import type { Failure } from '../../failure';
import { secretEquals } from '../../tokens';
import { route, sendError } from './errors';
import { IDEMPOTENCY_KEY, IdempotentAnswers, type Answer } from './idempotency';

export interface EventRoutesOptions {
  events: EventService;
  adminToken?: string;
  /** The creation budget per client address shared with `POST /api/matches` (MATCHES_PER_HOUR): on `POST /events` and `…/tables/:table/matches`. */
  creations: RequestHandler;
}

/** Token of an `Authorization: Bearer <token>` header, or undefined. */
type Bearer = (req: Request) => string | undefined;

/** Answer a refusal with its status (and `currentVersion` for `stale`). */
function refuse(res: Response, f: Failure): void {
  sendError(res, f.error, f.currentVersion === undefined ? {} : { currentVersion: f.currentVersion });
}

/** The page URLs of an event: the organiser's page (with its token) and each table's following pages. */
function eventUrls(base: string, event: EventInfo, token?: string) {
  const tables: Record<string, { overlay: string; watch: string; dashboard: string; scorer: string }> = {};
  for (const t of event.tables) {
    const at = `${event.id}/${t.id}`;
    tables[t.id] = {
      overlay: `${base}/overlay/table/${at}`,
      watch: `${base}/watch/table/${at}`,
      dashboard: `${base}/dashboard/table/${at}`,
      // The table's tablet (it needs the table's scorer token: POST …/scorer-token).
      scorer: `${base}/scorer/table/${at}`,
    };
  }
  return { organiser: `${base}/event/${event.id}${token ? `#token=${token}` : ''}`, tables };
}

/** Add the event routes to the `/api` router `r`. */
export function eventRoutes(r: Router, opts: EventRoutesOptions, bearer: Bearer): void {
  const { events } = opts;
  /** Answers of `POST /events` by `Idempotency-Key` (a repeated *Create event* press makes one event). */
  const created = new IdempotentAnswers(() => Date.now());
  const base = (req: Request) => `${req.protocol}://${req.host}`;
  const changed = (res: Response, c: Changed | Failure, status = 200) => (c.ok ? res.status(status).json({ event: publicInfo(c.event) }) : refuse(res, c));
  const tableOf = (res: Response, c: Changed | Failure, tableId: string) => {
    if (!c.ok) return refuse(res, c);
    const found = findTable(c.event, tableId);
    res.json({ event: publicInfo(c.event), ...('ok' in found ? {} : { table: tableStateOf(c.event, found.table) }) });
  };

  r.post(
    '/events',
    opts.creations,
    route(async (req, res) => {
      if (opts.adminToken !== undefined) {
        const token = bearer(req);
        if (token === undefined)
          return sendError(res, { code: 'unauthorized', message: 'creating an event needs the admin token (Authorization: Bearer …)', field: 'token' });
        if (!secretEquals(token, opts.adminToken)) return sendError(res, { code: 'forbidden', message: 'wrong admin token', field: 'token' });
      }
      const make = async (): Promise<Answer> => {
        const { event, organiserToken } = await events.create(req.body);
        return { status: 201, body: { id: event.id, organiserToken, event, urls: eventUrls(base(req), event, organiserToken) } };
      };
      const key = req.get('idempotency-key');
      if (key !== undefined && !IDEMPOTENCY_KEY.test(key))
        return sendError(res, { code: 'invalid-request', message: 'Idempotency-Key: must be 8–128 characters of A–Z a–z 0–9 _ -', field: 'Idempotency-Key' });
      const answer = key === undefined ? await make() : await created.run(key, make);
      res.status(answer.status).json(answer.body);
    }),
  );

  r.get('/events', async (_req, res) => {
    res.json({ events: await events.list(100) });
  });

  r.get('/events/:id', async (req, res) => {
    const view = await events.view(req.params.id);
    if (!view) return refuse(res, eventNotFound(req.params.id));
    res.json({ ...view, urls: eventUrls(base(req), view) });
  });

  r.get('/events/:id/organiser-check', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = bearer(req);
    const valid = await events.tokenValid(req.params.id, token ?? '');
    if (valid === null) return refuse(res, eventNotFound(req.params.id));
    res.json(valid ? { valid } : { valid, reason: token === undefined ? 'no-token' : 'wrong-token' });
  });

  r.patch(
    '/events/:id',
    route(async (req, res) => {
      const { expectedVersion, ...patch } = parseEventBody(eventPatchSchema, req.body);
      if (patch.defaults) checkDefaults(patch.defaults);
      changed(res, await events.change(req.params.id, bearer(req), expectedVersion, (d) => ({ ...d, ...patch })));
    }),
  );

  r.post(
    '/events/:id/players',
    route(async (req, res) => {
      const { players, expectedVersion } = parseEventBody(playersAddSchema, req.body);
      changed(res, await events.change(req.params.id, bearer(req), expectedVersion, (d) => withPlayers(d, players)), 201);
    }),
  );

  r.patch(
    '/events/:id/players/:playerId',
    route(async (req, res) => {
      const { expectedVersion, ...patch } = parseEventBody(playerPatchSchema, req.body);
      changed(res, await events.change(req.params.id, bearer(req), expectedVersion, (d) => withPlayerPatch(d, req.params.playerId, patch)));
    }),
  );

  r.delete(
    '/events/:id/players/:playerId',
    route(async (req, res) => {
      const { expectedVersion } = parseEventBody(versionOnlySchema, req.body);
      changed(res, await events.removePlayer(req.params.id, bearer(req), req.params.playerId, expectedVersion));
    }),
  );

  r.post(
    '/events/:id/tables',
    route(async (req, res) => {
      const { expectedVersion, ...table } = parseEventBody(tableAddSchema, req.body);
      changed(res, await events.change(req.params.id, bearer(req), expectedVersion, (d) => withTable(d, table)), 201);
    }),
  );

  r.get('/events/:id/tables/:table', async (req, res) => {
    const state = await events.table(req.params.id, req.params.table);
    if ('ok' in state) return refuse(res, state);
    res.json(state);
  });

  r.post(
    '/events/:id/tables/:table/matches',
    opts.creations,
    route(async (req, res) => {
      const body = parseEventBody(tableMatchSchema, req.body);
      const made = await events.createTableMatch(req.params.id, bearer(req), req.params.table, body);
      if (!made.ok) return refuse(res, made);
      const { id, scorerToken } = made.match;
      const found = findTable(made.event, req.params.table);
      res.status(201).json({
        match: {
          id,
          scorerToken,
          urls: {
            scorer: `${base(req)}/scorer/${id}#token=${scorerToken}`,
            overlay: `${base(req)}/overlay/${id}`,
            dashboard: `${base(req)}/dashboard/${id}`,
            watch: `${base(req)}/watch/${id}`,
          },
        },
        event: publicInfo(made.event),
        ...('ok' in found ? {} : { table: tableStateOf(made.event, found.table) }),
      });
    }),
  );

  r.post(
    '/events/:id/tables/:table/assign',
    route(async (req, res) => {
      const { matchId, start, expectedVersion } = parseEventBody(assignSchema, req.body);
      tableOf(res, await events.assign(req.params.id, bearer(req), req.params.table, matchId, start === true, expectedVersion), req.params.table);
    }),
  );

  r.post(
    '/events/:id/tables/:table/start',
    route(async (req, res) => {
      const { expectedVersion } = parseEventBody(versionOnlySchema, req.body);
      tableOf(res, await events.start(req.params.id, bearer(req), req.params.table, expectedVersion), req.params.table);
    }),
  );

  r.post(
    '/events/:id/tables/:table/undo-start',
    route(async (req, res) => {
      const { expectedVersion } = parseEventBody(versionOnlySchema, req.body);
      tableOf(res, await events.undoStart(req.params.id, bearer(req), req.params.table, expectedVersion), req.params.table);
    }),
  );

  r.delete(
    '/events/:id/tables/:table/next',
    route(async (req, res) => {
      const { expectedVersion } = parseEventBody(versionOnlySchema, req.body);
      const tableId = req.params.table;
      tableOf(res, await events.change(req.params.id, bearer(req), expectedVersion, (d) => withoutNext(d, tableId)), tableId);
    }),
  );

  r.post(
    '/events/:id/tables/:table/cards/:action',
    route(async (req, res) => {
      const action = req.params.action;
      if (!(CARD_ACTIONS as readonly string[]).includes(action)) {
        return sendError(res, { code: 'invalid-request', message: `action: "${action}" is not a card action (${CARD_ACTIONS.join(', ')})`, field: 'action' });
      }
      const { expectedVersion } = parseEventBody(versionOnlySchema, req.body);
      tableOf(res, await events.cards(req.params.id, bearer(req), req.params.table, action as CardAction, expectedVersion), req.params.table);
    }),
  );

  r.post(
    '/events/:id/tables/:table/scorer-token',
    route(async (req, res) => {
      parseEventBody(noBodySchema, req.body);
      const issued = await events.issueTableToken(req.params.id, bearer(req), req.params.table);
      if (!issued.ok) return refuse(res, issued);
      res.setHeader('Cache-Control', 'no-store');
      const at = `${req.params.id}/${req.params.table}`;
      res.status(201).json({ scorerToken: issued.scorerToken, url: `${base(req)}/scorer/table/${at}#token=${issued.scorerToken}` });
    }),
  );

  r.delete(
    '/events/:id/tables/:table/scorer-token',
    route(async (req, res) => {
      parseEventBody(noBodySchema, req.body);
      changed(res, await events.revokeTableToken(req.params.id, bearer(req), req.params.table));
    }),
  );
}
