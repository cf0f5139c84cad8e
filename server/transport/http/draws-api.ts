/**
 * The draw's REST routes (issue 27), added to the `/api` router. Changes need the event's organiser token
 * (`Authorization: Bearer …`); every answer carries the whole draw (`{draw: DrawInfo}`: version, settings,
 * definition and the view: matches, ready list, group tables, standings, champion).
 * - `POST /api/events/:id/draw` (server/protocol/draw-schemas.ts `drawCreateSchema`) → 201 `{draw}`; a draw that has
 *   begun is replaced only with `cancel: true` (409 `draw-started` naming `cancel`);
 * - `GET /api/events/:id/draw` (public) → `{draw}`; 404 `not-found` naming `draw` when the event has none;
 * - `POST /api/events/:id/draw/autopilot` `{"on": true | false}` → `{draw}`;
 * - `POST /api/events/:id/draw/results` `{match, winner, kind: win | walkover | retired, score?, innings?,
 *   highRun?, reset?}` → `{draw}` (a correction whose dependent matches started names them in `reset`, else
 *   409 `cascade-required`);
 * - `POST /api/events/:id/draw/pins` `{match, table | null}`, `POST /api/events/:id/draw/races` `{round, race}` → `{draw}`.
 * - overrides (issue 27 §4): `POST /api/events/:id/draw/absent` `{player, absent}`, `…/draw/absent-policy`
 *   `{policy: wait | walkover}`, `…/draw/swap` `{tables: [a, b]}`, `…/draw/unassign` `{match}` (before a shot;
 *   its table is then held), `…/draw/hold` `{table, held}` → `{draw}`;
 * Refusals: 400 `invalid-draw` / `not-in-draw` naming the field, 409 `not-ready`, `player-busy`, `draw-started`,
 * `cascade-required`, `stale` (with `currentVersion`), 401/403 for the token.
 */
import type { Request, Response, Router } from 'express';
import type { DrawInfo, DrawService } from '../../draws/service';
import type { Failure } from '../../failure';
import { sendError } from './errors';

type Bearer = (req: Request) => string | undefined;
type Req = Request<Record<string, string>>;

function answer(res: Response, r: { ok: true; draw: DrawInfo } | Failure, status = 200): void {
  if (!r.ok) return void sendError(res, r.error, r.currentVersion === undefined ? {} : { currentVersion: r.currentVersion });
  res.status(status).json({ draw: r.draw });
}

/** Add the draw routes to the `/api` router `r`. */
export function drawRoutes(r: Router, draws: DrawService, bearer: Bearer): void {
  r.post('/events/:id/draw', async (req: Req, res: Response) => answer(res, await draws.create(req.params.id!, bearer(req), req.body), 201));
  r.get('/events/:id/draw', async (req: Req, res: Response) => answer(res, await draws.get(req.params.id!)));
  r.post('/events/:id/draw/autopilot', async (req: Req, res: Response) => answer(res, await draws.autopilot(req.params.id!, bearer(req), req.body)));
  r.post('/events/:id/draw/results', async (req: Req, res: Response) => answer(res, await draws.result(req.params.id!, bearer(req), req.body)));
  r.post('/events/:id/draw/pins', async (req: Req, res: Response) => answer(res, await draws.pin(req.params.id!, bearer(req), req.body)));
  r.post('/events/:id/draw/races', async (req: Req, res: Response) => answer(res, await draws.race(req.params.id!, bearer(req), req.body)));
  r.post('/events/:id/draw/absent', async (req: Req, res: Response) => answer(res, await draws.absent(req.params.id!, bearer(req), req.body)));
  r.post('/events/:id/draw/absent-policy', async (req: Req, res: Response) => answer(res, await draws.absentPolicy(req.params.id!, bearer(req), req.body)));
  r.post('/events/:id/draw/swap', async (req: Req, res: Response) => answer(res, await draws.swap(req.params.id!, bearer(req), req.body)));
  r.post('/events/:id/draw/unassign', async (req: Req, res: Response) => answer(res, await draws.unassign(req.params.id!, bearer(req), req.body)));
  r.post('/events/:id/draw/hold', async (req: Req, res: Response) => answer(res, await draws.hold(req.params.id!, bearer(req), req.body)));
}
