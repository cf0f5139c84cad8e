/**
 * The organiser page's calls for the draw, roster import and webhooks (server/transport/http/draws-api.ts and
 * results-api.ts), with the organiser token; refusals come back as the server's `{code, message, field?}`.
 */
import type { DrawDefinition } from '../../../shared/draw/types';
import type { DrawView } from '../../../shared/draw/view';
import type { DrawSettings } from '../../../shared/protocol/draw';
import type { WebhookInfo } from '../../../shared/protocol/webhooks';
import { call, jsonRequest, type Result } from '../lib/rest';

/** What the draw routes answer (`{draw}`): the stored version, when it was made, the settings, the definition and the view. */
export interface DrawInfoView {
  eventId: string;
  version: number;
  /** When this draw was made (ms since the epoch): a replaced draw has another. */
  createdAt: number;
  settings: DrawSettings;
  definition: DrawDefinition;
  draw: DrawView;
}

const base = (eventId: string) => `/api/events/${encodeURIComponent(eventId)}`;

/** `GET /api/events/<id>/draw` (public); `not-found` naming `draw` when there is none. */
export function getDraw(eventId: string): Promise<Result<{ draw: DrawInfoView }>> {
  return call(`${base(eventId)}/draw`, jsonRequest('GET', undefined));
}

/**
 * `POST /api/events/<id>/draw<path>` with `body`: create at '', `/autopilot`, `/results`, `/pins`, `/races`, and
 * the overrides `/absent` `{player, absent}`, `/absent-policy` `{policy}`, `/swap` `{tables: [a, b]}`,
 * `/unassign` `{match}`, `/hold` `{table, held}`. Answers the whole draw, or the server's refusal.
 */
export function drawChange(eventId: string, token: string, path: string, body: unknown): Promise<Result<{ draw: DrawInfoView }>> {
  return call(`${base(eventId)}/draw${path}`, jsonRequest('POST', body, token));
}

/** `POST /api/events/<id>/players/import` `{csv}`: how many were imported, and skipped (their names already on the roster). */
export function importRoster(eventId: string, token: string, csv: string): Promise<Result<{ imported: number; skipped: number }>> {
  return call(`${base(eventId)}/players/import`, jsonRequest('POST', { csv }, token));
}

/** `GET /api/events/<id>/webhooks`. */
export function listHooks(eventId: string, token: string): Promise<Result<{ webhooks: WebhookInfo[] }>> {
  return call(`${base(eventId)}/webhooks`, jsonRequest('GET', undefined, token));
}

/** `POST /api/events/<id>/webhooks` `{url}` → the hook and its secret (shown once). */
export function addHook(eventId: string, token: string, url: string): Promise<Result<{ webhook: WebhookInfo; secret: string }>> {
  return call(`${base(eventId)}/webhooks`, jsonRequest('POST', { url }, token));
}

/** `DELETE /api/events/<id>/webhooks/<hookId>`. */
export function removeHook(eventId: string, token: string, id: string): Promise<Result<{ ok: true }>> {
  return call(`${base(eventId)}/webhooks/${encodeURIComponent(id)}`, jsonRequest('DELETE', undefined, token));
}

/**
 * The draw match ids a `cascade-required` refusal names (its message lists them in parentheses before "; name
 * them in reset"), or [] when it names none.
 */
export function cascadeList(message: string): string[] {
  const m = /\(([A-Za-z0-9, -]+)\); name them in reset/.exec(message);
  return m
    ? m[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}
