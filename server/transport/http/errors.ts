/** HTTP status for each wire error code, and the JSON error body `{error: {code, message, field?}}`. */
import type { Request, Response } from 'express';
import { RulesError } from '../../../shared/protocol/errors';
import type { ApiError, ErrorCode } from '../../../shared/protocol/errors';

/**
 * The HTTP status of every error code (a `Record`, so a new code in shared/protocol/errors.ts does not
 * compile until it has one): 400 invalid input and rules refusals; 401/403 tokens; 404; 409 `stale`,
 * `step-id-reused`, `no-next-match`, `no-current-match`, `match-on-table`, `no-stream-start`, `player-in-draw` and the shot clock's `no-clock`, `clock-expired`, `break-shot`, `no-extension-left`; 413; 429; 500; 503 `server-full`, `outcome-unknown` and `store-unavailable` (the store: retry); 500 `internal` and `store-damaged` (damaged stored data: permanent, no retry).
 * The three websocket admission codes never travel over HTTP (they come as Socket.IO `connect_error` data);
 * their status here is the one a REST twin would have.
 */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  'invalid-setup': 400,
  'invalid-step': 400,
  'invalid-event': 400,
  'match-over': 400,
  'choice-pending': 400,
  'no-choice-pending': 400,
  'wrong-choice': 400,
  'ball-not-on-table': 400,
  'push-out-not-allowed': 400,
  'placement-forbidden': 400,
  'inconsistent-shot': 400,
  'foreign-fact': 400,
  'not-for-this-shot': 400,
  'nothing-to-undo': 400,
  'no-clock': 409,
  'clock-expired': 409,
  'break-shot': 409,
  'no-extension-left': 409,
  'invalid-request': 400,
  'protocol-mismatch': 400,
  'step-id-reused': 409,
  stale: 409,
  'no-next-match': 409,
  'no-current-match': 409,
  'match-on-table': 409,
  'no-stream-start': 409,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'too-large': 413,
  'rate-limited': 429,
  'invalid-draw': 400,
  'invalid-roster': 400,
  'invalid-webhook': 400,
  'not-in-draw': 400,
  'not-ready': 409,
  'player-busy': 409,
  'draw-started': 409,
  'cascade-required': 409,
  'player-in-draw': 409,
  'not-current-match': 403,
  'origin-not-allowed': 403,
  'too-many-connections': 429,
  'server-full': 503,
  'outcome-unknown': 503,
  'store-unavailable': 503,
  'store-damaged': 500,
  internal: 500,
};

/** HTTP status of `code` (see HTTP_STATUS). */
export function statusOf(code: ErrorCode): number {
  return HTTP_STATUS[code] ?? 500;
}

/** Send `{error, ...extra}` with the status of its code. */
export function sendError(res: Response, error: ApiError, extra: Record<string, unknown> = {}): void {
  res.status(statusOf(error.code)).json({ error, ...extra });
}

/** A request with its path parameters (`:id`, `:table`, `:playerId`, `:action`). */
export type Req = Request<Record<string, string>>;

/** Run a route; a RulesError thrown by a body parse or the set-up parser is its refusal. */
export function route(fn: (req: Req, res: Response) => Promise<void>) {
  return async (req: Req, res: Response) => {
    try {
      await fn(req, res);
    } catch (err) {
      if (err instanceof RulesError) return sendError(res, err.toJSON());
      throw err;
    }
  };
}
