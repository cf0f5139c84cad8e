/**
 * The REST routes of an event's results, roster import and webhooks (issue 27 §6), added to the `/api` router:
 * - `GET /api/events/:id/results.json` (public) → `EventResults` (shared/protocol/results.ts);
 * - `GET /api/events/:id/results.csv` (public) → the same, one row per match (RFC 4180, header first);
 * - `POST /api/events/:id/players/import` `{csv, expectedVersion?}` (organiser) → 201 `{event, imported, skipped}`:
 *   the rows `name, short, country, rating` added to the roster, a row whose name is on it already skipped (and
 *   counted); a bad row (a name twice in the file too) is refused (400 `invalid-roster` naming the row and the
 *   column, `field` `rows.<row>.<column>`) and nothing is imported;
 * - `POST /api/events/:id/webhooks` `{url}` (organiser) → 201 `{webhook, secret}` (the secret shown this once);
 *   400 `invalid-webhook` naming `url` for a URL that is not http(s);
 * - `GET /api/events/:id/webhooks` (organiser) → `{webhooks}` with each hook's status;
 * - `DELETE /api/events/:id/webhooks/:hookId` (organiser) → `{ok: true}`.
 */
import type { Request, Response, Router } from 'express';
import type { EventService } from '../../events/service';
import { eventNotFound } from '../../events/service';
import { parseRosterCsv } from '../../events/roster-csv';
import { rosterImportSchema } from '../../protocol/results-schemas';
import { parseEventBody } from '../../protocol/event-schemas';
import type { ResultsService } from '../../results/service';
import type { WebhookService } from '../../webhooks/service';
import { publicInfo } from '../../events/event-docs';
import { resultsCsv } from './csv';
import { route, sendError } from './errors';

type Bearer = (req: Request) => string | undefined;

export interface ResultsRoutesOptions {
  events: EventService;
  results: ResultsService;
  webhooks: WebhookService;
}

/** Add the results, roster import and webhook routes to the `/api` router `r`. */
export function resultsRoutes(r: Router, opts: ResultsRoutesOptions, bearer: Bearer): void {
  const { events, results, webhooks } = opts;
  const base = (req: Request) => `${req.protocol}://${req.host}`;

  r.get(
    '/events/:id/results.json',
    route(async (req, res) => {
      const out = await results.results(req.params.id!);
      if (!out) return sendError(res, eventNotFound(req.params.id!).error);
      res.setHeader('Cache-Control', 'no-cache');
      res.json(out);
    }),
  );

  r.get(
    '/events/:id/results.csv',
    route(async (req, res) => {
      const out = await results.results(req.params.id!);
      if (!out) return sendError(res, eventNotFound(req.params.id!).error);
      res.setHeader('Cache-Control', 'no-cache');
      res
        .type('text/csv; charset=utf-8')
        .attachment(`cuecast-${req.params.id}-results.csv`)
        .send(resultsCsv(out, base(req)));
    }),
  );

  r.post(
    '/events/:id/players/import',
    route(async (req, res) => {
      const { csv, expectedVersion } = parseEventBody(rosterImportSchema, req.body, 'invalid-roster');
      const players = parseRosterCsv(csv);
      const c = await events.importPlayers(req.params.id!, bearer(req), players, expectedVersion);
      if (!c.ok) return sendError(res, c.error, c.currentVersion === undefined ? {} : { currentVersion: c.currentVersion });
      res.status(201).json({ event: publicInfo(c.event), imported: c.imported, skipped: c.skipped });
    }),
  );

  r.post(
    '/events/:id/webhooks',
    route(async (req: Request<Record<string, string>>, res: Response) => {
      const made = await webhooks.register(req.params.id!, bearer(req), req.body);
      if (!made.ok) return sendError(res, made.error);
      res.status(201).json({ webhook: made.webhook, secret: made.secret });
    }),
  );

  r.get(
    '/events/:id/webhooks',
    route(async (req: Request<Record<string, string>>, res: Response) => {
      res.setHeader('Cache-Control', 'no-store');
      const got = await webhooks.list(req.params.id!, bearer(req));
      if (!got.ok) return sendError(res, got.error);
      res.json({ webhooks: got.webhooks });
    }),
  );

  r.delete(
    '/events/:id/webhooks/:hookId',
    route(async (req: Request<Record<string, string>>, res: Response) => {
      const done = await webhooks.remove(req.params.id!, bearer(req), req.params.hookId!);
      if (!done.ok) return sendError(res, done.error);
      res.json({ ok: true });
    }),
  );
}
