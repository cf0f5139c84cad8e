/**
 * REST routes of the production assistant (issue 28; added to the `/api` router, so they share its rate limit,
 * body cap and errors). Reading is public; setting a table's stream start needs the event's organiser token.
 * - `GET /api/matches/:id/highlights.json?threshold=&comebackFrom=&lang=` → `{matchId, version, options,
 *   streamStart, highlights: [{kind, at, from, version, player, rack, score, numbers, title}]}`;
 * - `GET /api/matches/:id/chapters.txt?start=&threshold=&comebackFrom=&lang=` → the YouTube chapters as text
 *   (`0:00 Lee vs Watanabe`, one line each), aligned to `start` or the table's stream start; 409
 *   `no-stream-start` when neither is known;
 * - `GET /api/matches/:id/talking-points.json?lang=` → `{matchId, version, lang, points: [{key, kind, player,
 *   text, numbers, weight, new, since}]}`;
 * - `GET /api/events/:id/tables/:table/stream-start` → `{streamStart}` (null when not known);
 * - `PUT /api/events/:id/tables/:table/stream-start` `{at, source?, expectedVersion?}` → `{streamStart, event}`.
 * `lang` is `en` (default), `ja` or `zh-TW`. Bad values are 400 `invalid-request` naming the parameter.
 */
import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type { AssistantService } from '../../assistant/service';
import { isAssistantLang, type AssistantLang } from '../../../shared/assistant-words';
import type { EventService } from '../../events/service';
import { findTable } from '../../events/event-docs';
import { parseEventBody, streamStartSchema } from '../../protocol/event-schemas';
import type { Failure } from '../../failure';
import { route, sendError } from './errors';

type Bearer = (req: Request) => string | undefined;

/** A single query value: a string, or undefined when absent; `invalid-request` naming it when repeated. */
function single(req: Request, name: string): string | undefined | Failure {
  const v = req.query[name];
  if (v === undefined || typeof v === 'string') return v;
  return { ok: false, error: { code: 'invalid-request', message: `${name}: give it once`, field: name } };
}

/** The `lang` query value, default `en`. */
function langOf(req: Request): AssistantLang | Failure {
  const v = single(req, 'lang');
  if (v === undefined || v === '') return 'en';
  if (typeof v === 'object') return v;
  return isAssistantLang(v)
    ? v
    : { ok: false, error: { code: 'invalid-request', message: `lang: must be en, ja or zh-TW (got ${v.slice(0, 12)})`, field: 'lang' } };
}

const failed = (x: unknown): x is Failure => typeof x === 'object' && x !== null && 'ok' in x && (x as Failure).ok === false;

/** Add the assistant's routes to the `/api` router `r`. */
export function assistantRoutes(r: Router, assistant: AssistantService, events: EventService, bearer: Bearer): void {
  const queries = (req: Request, res: Response, names: string[]): Record<string, string | undefined> | null => {
    const out: Record<string, string | undefined> = {};
    for (const n of names) {
      const v = single(req, n);
      if (failed(v)) {
        sendError(res, v.error);
        return null;
      }
      out[n] = v;
    }
    return out;
  };

  r.get('/matches/:id/highlights.json', async (req, res) => {
    const lang = langOf(req);
    if (failed(lang)) return sendError(res, lang.error);
    const q = queries(req, res, ['threshold', 'comebackFrom']);
    if (!q) return;
    const a = await assistant.highlights(req.params.id, q.threshold, q.comebackFrom, lang);
    if ('ok' in a) return sendError(res, a.error);
    res.setHeader('Cache-Control', 'no-store');
    res.json(a);
  });

  r.get('/matches/:id/chapters.txt', async (req, res) => {
    const lang = langOf(req);
    if (failed(lang)) return sendError(res, lang.error);
    const q = queries(req, res, ['start', 'threshold', 'comebackFrom']);
    if (!q) return;
    const a = await assistant.chapters(req.params.id, q.start, q.threshold, q.comebackFrom, lang);
    if (!a.ok) return sendError(res, a.error);
    res.setHeader('Cache-Control', 'no-store');
    res.type('text/plain; charset=utf-8').send(a.text);
  });

  r.get('/matches/:id/talking-points.json', async (req, res) => {
    const lang = langOf(req);
    if (failed(lang)) return sendError(res, lang.error);
    const a = await assistant.talkingPoints(req.params.id, lang);
    if ('ok' in a) return sendError(res, a.error);
    res.setHeader('Cache-Control', 'no-store');
    res.json(a);
  });

  r.get('/events/:id/tables/:table/stream-start', async (req, res) => {
    const view = await events.view(req.params.id);
    if (!view) return sendError(res, { code: 'not-found', message: `eventId: no event "${req.params.id}"`, field: 'eventId' });
    const found = findTable(view as Parameters<typeof findTable>[0], req.params.table);
    if ('ok' in found) return sendError(res, found.error);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ streamStart: found.table.streamStart ?? null });
  });

  r.put(
    '/events/:id/tables/:table/stream-start',
    route(async (req, res) => {
      const body: z.output<typeof streamStartSchema> = parseEventBody(streamStartSchema, req.body, 'invalid-request');
      const c = await assistant.setStreamStart(req.params.id, bearer(req), req.params.table, body.at, body.source ?? 'producer', body.expectedVersion);
      if (!c.ok) return sendError(res, c.error, c.currentVersion === undefined ? {} : { currentVersion: c.currentVersion });
      res.json({ streamStart: c.streamStart });
    }),
  );
}
