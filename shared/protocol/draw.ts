/**
 * The draw page's messages (issue 27), typed once for the server, the live client (web/src/lib/live-draw.ts) and
 * the tests (zod-free; the server's schemas: server/protocol/draw-schemas.ts):
 * - `subscribeDraw {protocol, eventId}` → joins room `draw:<eventId>` (rooms.ts `drawRoom`), ack
 *   `{ok, …DrawPage}`: the whole draw once, with the players' names;
 * - the room then gets `draw` (DrawPush) after every change of the draw's entries (a match started, a
 *   result, a correction, a race): only what changed (`DrawDelta`, shared/draw/view.ts), at most a few KB per
 *   result for a 128-player double elimination (`npm run bench:draw`);
 * - `unsubscribeDraw {eventId}` leaves (no answer).
 * A page applies a push only to the view it holds at exactly `delta.from` entries of the same draw
 * (`createdAt`); any other push (a gap, a replaced draw: `from` −1) makes it subscribe again for the whole view.
 */
import type { DrawDefinition } from '../draw/types';
import type { DrawDelta, DrawView } from '../draw/view';
import type { ApiError } from './errors';
import type { PROTOCOL_VERSION } from './version';

/** Pushed to room `draw:<eventId>` after each change of the draw's entries. */
export interface DrawPush {
  eventId: string;
  /** The draw's stored version after the change (settings changes move it too, without a push). */
  version: number;
  /** When this draw was made (ms since the epoch): a replaced draw (cancelled and made again) has another. */
  createdAt: number;
  /** What changed; `from: -1` when the draw was (re)made: subscribe again for the whole view. */
  delta: DrawDelta;
}

/** A player of the draw as the draw page shows them (from the event's roster). */
export interface DrawPagePlayer {
  id: string;
  name: string;
  short?: string;
  country?: string;
  rating?: number;
}

/** What the draw page needs: the whole view, the players' names, the event's name and tables. */
export interface DrawPage {
  eventId: string;
  eventName: string;
  version: number;
  createdAt: number;
  format: DrawDefinition['format'];
  /** The players of the draw (by id). */
  players: DrawPagePlayer[];
  /** The event's tables (id and name), for "on Table 2". */
  tables: { id: string; name: string }[];
  draw: DrawView;
}

/** Socket.IO `subscribeDraw`: join the draw's room; the ack carries the whole draw. */
export interface SubscribeDrawRequest {
  /** The page's PROTOCOL_VERSION; any other value is refused with `protocol-mismatch`. */
  protocol: typeof PROTOCOL_VERSION;
  eventId: string;
}
/** `not-found` naming `eventId` (no event) or `draw` (the event has no draw yet). */
export type SubscribeDrawAck = ({ ok: true } & DrawPage) | { ok: false; error: ApiError };
/** Socket.IO `unsubscribeDraw` (no ack). */
export interface UnsubscribeDrawRequest {
  eventId: string;
}

/**
 * The draw's settings, what the draw service keeps beside the entries (server/storage/draw-store.ts) and what the
 * draw routes answer (`GET /api/events/<id>/draw` → `{draw: {…, settings}}`; the organiser page reads them).
 */
export interface DrawSettings {
  /** Autopilot: a freed table takes the next ready match by itself. */
  autopilot: boolean;
  /** Draw match id → the table it must go on (it waits for that table). */
  pins: Record<string, string>;
  /** Draw match ids that go to the TV table (and wait for it). */
  featured: string[];
  /** The TV table's id, or null. */
  tvTable: string | null;
  /** Players marked absent (not arrived): their matches wait or are walked over, as `absentPolicy` says. Absent: none. */
  absent?: string[];
  /**
   * What a ready match of an absent player does: `wait` (default: autopilot passes it over until the player is
   * back) or `walkover` (the present player goes through; two absent players: it waits).
   */
  absentPolicy?: 'wait' | 'walkover';
  /** Tables autopilot leaves alone (one whose assignment was undone, until the organiser releases it). Absent: none. */
  held?: string[];
}
