/**
 * The shot clock on the wire (types only; the server's zod schemas are in server/protocol/shot-clock-schemas.ts). The clock's
 * model is shared/shot-clock.ts; docs/rules.md D-32 says what it may and may not change.
 *
 * Socket.IO: `time` (ack `{ok, now}`: the server's time in ms, for the page's offset estimate), `shotClock`
 * (ack: a match's clock now), `shotClockAction` (the scorer's connection: start, pause, resume, reset,
 * extension), and the push `shotClock` to the match's rooms after every change.
 * REST: `PUT /api/matches/:id/clock`, `POST /api/matches/:id/clock/:action`,
 * `POST /api/events/:id/tables/:table/clock/:action`; `GET /api/matches/:id` includes `clock`.
 */
import type { ApiError } from './errors';
import type { ShotClockAction, ShotClockSettings, ShotClockView } from '../shot-clock';

/** Socket.IO `time`: no fields. */
export type TimeRequest = Record<string, never>;
/** The server's time when it answered (ms since the Unix epoch). */
export type TimeAck = { ok: true; now: number } | { ok: false; error: ApiError };

/** Socket.IO `shotClock`: read match `matchId`'s clock. */
export interface ShotClockRequest {
  matchId: string;
}

/** A match's clock at server time `now` (null: the match has no clock). Also the push `shotClock`. */
export interface ShotClockPush {
  matchId: string;
  clock: ShotClockView | null;
  now: number;
  /**
   * The stored clock's revision (every change adds 1; 0 while none was ever stored): a display keeps the highest
   * it has seen, so a late push or answer never takes the clock back.
   */
  revision: number;
}

/** The answer to a read or an action: the clock now; `duplicate` when the press repeated what the clock already was. */
export type ShotClockAck = ({ ok: true; duplicate?: boolean } & ShotClockPush) | { ok: false; error: ApiError };

/** Socket.IO `shotClockAction` (a connection with the scorer token) and REST `POST …/clock/:action` body (`period` only). */
export interface ShotClockActionRequest {
  matchId: string;
  action: ShotClockAction;
  /** The clock period (`ShotClockView.shot`) the press was meant for: a press for another period changes nothing. */
  period?: number;
}

/**
 * REST `PUT /api/matches/:id/clock`: a preset (`off` turns the clock off) or whole settings. The same choice is
 * the optional `clock` field of `POST /api/matches` and of an event's `defaults` (applied to every match made on
 * the event's tables).
 */
export type ShotClockSettingsBody = { preset: 'pro' | 'league' | 'off' } | { settings: ShotClockSettings };
