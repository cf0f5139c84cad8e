/**
 * The shot clock's REST routes (a button box, a Stream Deck, Bitfocus Companion; the console uses them too):
 * - `PUT /api/matches/:id/clock` (scorer token) `{preset: "pro" | "league" | "off"}` or `{settings}` → `{matchId, clock, now}`;
 * - `POST /api/matches/:id/clock/:action` (scorer token; `start`, `pause`, `resume`, `reset`, `extension`; body
 *   empty or `{period}`) → `{matchId, clock, now, duplicate}`;
 * - `POST /api/events/:id/tables/:table/clock/:action` (organiser token): the same for the table's current match.
 * Refusals: `no-clock`, `clock-expired`, `break-shot` (the clock does not run for a break, D-32a), `no-extension-left` (409), `match-over`, `invalid-request` (400).
 */
import type { Request, Response, Router } from 'express';
import { parseEventBody } from '../../protocol/event-schemas';
import { bothClockChoices, shotClockActionBodySchema, shotClockSettingsBodySchema } from '../../protocol/shot-clock-schemas';
import { CLOCK_ACTIONS, type ShotClockAction } from '../../../shared/shot-clock';
import type { EventService } from '../../events/service';
import type { Failure } from '../../failure';
import type { ShotClockResult, ShotClockService } from '../../shot-clock/service';
import { route, sendError } from './errors';

/** Add the clock routes to the `/api` router `r`. */
export function shotClockRoutes(r: Router, shotClocks: ShotClockService, events: EventService, bearer: (req: Request) => string | undefined): void {
  const answer = (res: Response, c: ShotClockResult | Failure) => {
    if (!c.ok) return sendError(res, c.error);
    const { matchId, clock, now, duplicate } = c as Extract<ShotClockResult, { ok: true }>;
    res.json({ matchId, clock, now, duplicate });
  };
  const action = (req: Request<Record<string, string>>, res: Response): ShotClockAction | null => {
    const a = req.params.action;
    if ((CLOCK_ACTIONS as readonly string[]).includes(a)) return a as ShotClockAction;
    sendError(res, { code: 'invalid-request', message: `action: "${a}" is not a clock action (${CLOCK_ACTIONS.join(', ')})`, field: 'action' });
    return null;
  };
  /** A request body parsed with `schema` (an empty body as `{}`); a refusal names the field. */
  const body = <T>(req: Request, schema: Parameters<typeof parseEventBody<T>>[0]): T => parseEventBody(schema, req.body ?? {}, 'invalid-request');
  r.put(
    '/matches/:id/clock',
    route(async (req, res) => {
      const both = bothClockChoices(req.body, '');
      if (both) return sendError(res, { code: 'invalid-request', ...both });
      const b = body(req, shotClockSettingsBodySchema);
      const settings = 'settings' in b ? b.settings : b.preset === 'off' ? null : b.preset;
      answer(res, await shotClocks.configure(req.params.id, { scorerToken: bearer(req) }, settings));
    }),
  );

  r.post(
    '/matches/:id/clock/:action',
    route(async (req, res) => {
      const a = action(req, res);
      if (!a) return;
      const { period } = body(req, shotClockActionBodySchema);
      answer(res, await shotClocks.act(req.params.id, { scorerToken: bearer(req) }, a, period));
    }),
  );

  r.post(
    '/events/:id/tables/:table/clock/:action',
    route(async (req, res) => {
      const a = action(req, res);
      if (!a) return;
      const { period } = body(req, shotClockActionBodySchema);
      const current = await events.currentMatchFor(req.params.id, bearer(req), req.params.table);
      if (!current.ok) return sendError(res, current.error);
      answer(res, await shotClocks.act(current.matchId, { organiser: true }, a, period));
    }),
  );
}
