/**
 * The sponsors' logos of an event (added to the `/api` router). Changes need the organiser token.
 * - `POST /api/events/:id/sponsors?name=<name>&seconds=<2–60>` with the image as the raw body (any
 *   Content-Type; the type is read from the bytes: PNG, JPEG, WebP or SVG) → 201 `{sponsor, event}`; at most
 *   512 KiB (413 `too-large` naming `image`) and 20 logos an event (400 `invalid-event` naming `sponsors`);
 *   registered before the `/api` JSON parser (`sponsorUploadRoute`);
 * - `PATCH /api/events/:id/sponsors/:sponsorId` `{name?, seconds?, position?}` (position: 0-based place in the
 *   order) → `{event}`; `DELETE /api/events/:id/sponsors/:sponsorId` → `{event}`;
 * - `GET /api/events/:id/sponsors/:sponsorId/image` (public): the logo with its type, never sniffed by the
 *   browser (`nosniff`), under a sandboxing CSP (`default-src 'none'; style-src 'unsafe-inline'; sandbox`) so an
 *   SVG opened on its own runs no script and loads nothing; cached for good (a new upload gets a new id).
 */
import express, { type Request, type Response, type Router } from 'express';
import { SPONSOR_LIMITS } from '../../../shared/protocol/event';
import { publicInfo } from '../../events/event-docs';
import type { EventService } from '../../events/service';
import { sniffImageType, sponsorName, sponsorSeconds, withSponsorPatch } from '../../events/sponsors';
import type { Failure } from '../../failure';
import { sendError } from './errors';
import { storeErrorOf } from '../../storage/store-errors';

type Bearer = (req: Request) => string | undefined;
type Req = Request<Record<string, string>>;

const refuse = (res: Response, f: Failure) => sendError(res, f.error, f.currentVersion === undefined ? {} : { currentVersion: f.currentVersion });
const isFailure = (v: unknown): v is Failure => typeof v === 'object' && v !== null && (v as Failure).ok === false;
const raw = express.raw({ type: () => true, limit: SPONSOR_LIMITS.bytes });

/** The upload route, to add to the `/api` router before its JSON body parser. */
export function sponsorUploadRoute(r: Router, events: EventService, bearer: Bearer): void {
  r.post('/events/:id/sponsors', (req: Req, res: Response) => {
    raw(req, res, async (err?: unknown) => {
      if (err) {
        const tooLarge = (err as { type?: string }).type === 'entity.too.large';
        return sendError(
          res,
          tooLarge
            ? { code: 'too-large', message: `image: over ${SPONSOR_LIMITS.bytes / 1024} KiB (${SPONSOR_LIMITS.bytes} bytes)`, field: 'image' }
            : { code: 'invalid-event', message: 'image: the upload could not be read', field: 'image' },
        );
      }
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (bytes.length === 0)
        return sendError(res, { code: 'invalid-event', message: 'image: send the logo as the request body (PNG, JPEG, WebP or SVG)', field: 'image' });
      const type = sniffImageType(bytes);
      if (!type)
        return sendError(res, {
          code: 'invalid-event',
          message: 'image: not a PNG, JPEG, WebP or SVG image (the type is read from the content, not the name)',
          field: 'image',
        });
      const name = sponsorName(req.query.name);
      if (isFailure(name)) return refuse(res, name);
      const seconds = sponsorSeconds(req.query.seconds);
      if (isFailure(seconds)) return refuse(res, seconds);
      try {
        const added = await events.addSponsor(req.params.id, bearer(req), { name, type, size: bytes.length, seconds }, { type, bytes });
        if (!added.ok) return refuse(res, added);
        res.status(201).json({ sponsor: added.sponsor, event: publicInfo(added.event) });
      } catch (e) {
        // The image write comes first: a full store (disk, Redis memory) refuses it, and nothing was listed.
        sendError(res, storeErrorOf(e) ?? { code: 'internal', message: 'the event store is unavailable; retry' });
      }
    });
  });
}

/** The other sponsor routes (after the JSON parser). */
export function sponsorRoutes(r: Router, events: EventService, bearer: Bearer): void {
  r.patch('/events/:id/sponsors/:sponsorId', async (req: Req, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body))
      return sendError(res, { code: 'invalid-event', message: 'body: an object {name?, seconds?, position?}', field: 'body' });
    const unknown = Object.keys(body).find((k) => !['name', 'seconds', 'position'].includes(k));
    if (unknown) return sendError(res, { code: 'invalid-event', message: `${unknown}: not a sponsor field (name, seconds, position)`, field: unknown });
    const patch: { name?: string; seconds?: number; position?: number } = {};
    if (body.name !== undefined) {
      const name = sponsorName(body.name);
      if (isFailure(name)) return refuse(res, name);
      patch.name = name;
    }
    if (body.seconds !== undefined) {
      const seconds = sponsorSeconds(body.seconds);
      if (isFailure(seconds)) return refuse(res, seconds);
      patch.seconds = seconds;
    }
    if (body.position !== undefined) {
      if (!Number.isInteger(body.position) || (body.position as number) < 0)
        return sendError(res, { code: 'invalid-event', message: 'position: a place in the order from 0', field: 'position' });
      patch.position = body.position as number;
    }
    const c = await events.change(req.params.id, bearer(req), undefined, (d) => withSponsorPatch(d, req.params.sponsorId, patch));
    if (!c.ok) return refuse(res, c);
    res.json({ event: publicInfo(c.event) });
  });

  r.delete('/events/:id/sponsors/:sponsorId', async (req: Req, res: Response) => {
    const c = await events.removeSponsor(req.params.id, bearer(req), req.params.sponsorId);
    if (!c.ok) return refuse(res, c);
    res.json({ event: publicInfo(c.event) });
  });

  r.get('/events/:id/sponsors/:sponsorId/image', async (req: Req, res: Response) => {
    const image = await events.sponsorImage(req.params.id, req.params.sponsorId);
    if (!image)
      return sendError(res, { code: 'not-found', message: `sponsorId: event "${req.params.id}" has no sponsor "${req.params.sponsorId}"`, field: 'sponsorId' });
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type(image.type).send(image.bytes);
  });
}
