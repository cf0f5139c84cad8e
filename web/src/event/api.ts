/**
 * The event pages' REST calls (server/transport/http/events-api.ts). Changes carry the organiser token; errors come
 * back as the server's `{code, message, field?}`.
 */
import type { EventInfo, RosterPlayer, TableState } from '../../../shared/protocol/event';
import { call, jsonRequest, type Result } from '../lib/rest';

export interface CreatedEvent {
  id: string;
  organiserToken: string;
  event: EventInfo;
  urls: { organiser: string };
}

/**
 * `POST /api/events` (`adminToken` only when the server needs one) with `Idempotency-Key: idempotencyKey`: every
 * press of one form sends the same key, so a repeated press (or a retry after a lost answer) makes one event.
 */
export function createEvent(body: unknown, adminToken: string | undefined, idempotencyKey: string): Promise<Result<CreatedEvent>> {
  const init = jsonRequest('POST', body, adminToken);
  return call<CreatedEvent>('/api/events', { ...init, headers: { ...(init.headers as Record<string, string>), 'idempotency-key': idempotencyKey } });
}

/** A new idempotency key: 32 random hex digits (getRandomValues works on a plain-http LAN page, randomUUID does not). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `GET /api/events/<id>/organiser-check`: is `token` this event's organiser token? */
export async function checkOrganiser(eventId: string, token: string): Promise<Result<{ valid: boolean; reason?: string }>> {
  return call(`/api/events/${encodeURIComponent(eventId)}/organiser-check`, jsonRequest('GET', undefined, token));
}

/** What a change answers: the event, the table it was about, and for a new match its id and scorer token. */
export interface Acted {
  event: EventInfo;
  table?: TableState;
  match?: { id: string; scorerToken: string };
}

/** A change of event `eventId` at `path` (below `/api/events/<id>`) with the organiser token. */
export function change(eventId: string, token: string, method: string, path: string, body: unknown = {}): Promise<Result<Acted>> {
  return call<Acted>(`/api/events/${encodeURIComponent(eventId)}${path}`, jsonRequest(method, body, token));
}

/** A roster player as a form holds it (text fields; '' = not given). */
export interface PlayerForm {
  name: string;
  short: string;
  country: string;
  rating: string;
}

/** An empty player form. */
export const emptyPlayer = (): PlayerForm => ({ name: '', short: '', country: '', rating: '' });

/** A player as the forms build them (empty optional fields left out). */
export function playerBody(p: PlayerForm): Omit<RosterPlayer, 'id'> {
  const out: Omit<RosterPlayer, 'id'> = { name: p.name.trim() };
  if (p.short.trim()) out.short = p.short.trim();
  if (p.country) out.country = p.country;
  if (p.rating.trim() !== '') out.rating = Number(p.rating);
  return out;
}

/** A table's scorer token as `POST /api/events/<id>/tables/<table>/scorer-token` answers it (issue 27 §4). */
export interface IssuedTableToken {
  scorerToken: string;
  /** The tablet's address with the token in its fragment: what the QR code carries. */
  url: string;
}

/** Issue (or replace) table `table`'s scorer token; `revoke` removes it (`DELETE` the same path). */
export function tableToken(eventId: string, token: string, table: string, revoke = false): Promise<Result<IssuedTableToken | { event: EventInfo }>> {
  const path = `/api/events/${encodeURIComponent(eventId)}/tables/${encodeURIComponent(table)}/scorer-token`;
  return call(path, jsonRequest(revoke ? 'DELETE' : 'POST', undefined, token));
}
