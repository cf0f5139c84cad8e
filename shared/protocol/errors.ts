/**
 * Typed errors shared by the rules engine, the server and the browser pages.
 * Every refusal carries a stable machine `code`, a human `message` naming the field and the reason,
 * and, where one field is at fault, its dotted `field` path (e.g. `shot.pocketed.1`).
 */

/** Stable error codes. Rules codes come from the engine (D-30); transport codes from the server. */
export type ErrorCode =
  // input shape
  | 'invalid-setup'
  | 'invalid-step'
  | 'invalid-event'
  // rules (D-30): the step is well formed but the rules cannot accept it now
  | 'match-over'
  | 'choice-pending'
  | 'no-choice-pending'
  | 'wrong-choice'
  | 'ball-not-on-table'
  | 'push-out-not-allowed'
  | 'placement-forbidden'
  /** Facts of one shot that contradict each other (a ball twice, the break ball in the rack area and behind the head string). */
  | 'inconsistent-shot'
  /** A fact or step of the other discipline, or of a match option that is off (a `call` in Rotation without call shot). */
  | 'foreign-fact'
  /** A fact of another kind of shot (`breakRails` on an ordinary shot, a `call` on the Rotation break, `rackArea` without a re-rack). */
  | 'not-for-this-shot'
  | 'nothing-to-undo'
  // shot clock (docs/rules.md D-32, D-32a): the match has no clock, the clock ran out, no extension left, a break (no clock)
  | 'no-clock'
  | 'clock-expired'
  | 'break-shot'
  | 'no-extension-left'
  // transport / server
  | 'invalid-request'
  | 'protocol-mismatch'
  | 'step-id-reused'
  | 'stale'
  // events and tables
  | 'no-next-match'
  | 'no-current-match'
  | 'match-on-table'
  /** chapters.txt: no stream start is known for the match's table and none was given (`start`). */
  | 'no-stream-start'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'too-large'
  | 'rate-limited'
  // draws (shared/draw): a bad definition or result; a match or round not in the draw; a match not ready to play;
  // a player already on a table; a change after the draw (or the round) began; a correction without its cascade
  | 'invalid-draw'
  | 'not-in-draw'
  | 'not-ready'
  | 'player-busy'
  | 'draw-started'
  | 'cascade-required'
  /** A roster player who is a player of the event's draw cannot leave the roster (the draw would show a bare id). */
  | 'player-in-draw'
  /** A table scorer token used for a match that is not its table's current match (issue 27 §4). */
  | 'not-current-match'
  // event results and automation (issue 27 §6): a bad roster CSV (its row and column named); a bad webhook (its URL)
  | 'invalid-roster'
  | 'invalid-webhook'
  // websocket admission (Socket.IO `connect_error`, `err.data.code`)
  | 'origin-not-allowed'
  | 'too-many-connections'
  | 'server-full'
  /** The store did not answer in time (or the connection broke mid-write): the step may or may not be recorded; retry with the same eventId. */
  | 'outcome-unknown'
  /** The store refused the write (disk full, I/O error, Redis out of memory, a damaged match): nothing was recorded; retry later. */
  | 'store-unavailable'
  /** The stored match or event is damaged (a page of the database cannot be read): permanent, retrying never helps; it is served up to its last good state. */
  | 'store-damaged'
  | 'internal';

/** Plain, serialisable error object as it travels over HTTP and Socket.IO: `{code, message, field?}`. */
export interface ApiError {
  code: ErrorCode;
  message: string;
  field?: string;
}

/**
 * Error thrown or returned by the rules engine. `field` is a dotted path into the offending input.
 * Never thrown for a legal step; a refused step leaves the match untouched.
 */
export class RulesError extends Error {
  readonly code: ErrorCode;
  readonly field?: string;
  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'RulesError';
    this.code = code;
    if (field !== undefined) this.field = field;
  }
  /** The wire form `{code, message, field?}`. */
  toJSON(): ApiError {
    return this.field === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, field: this.field };
  }
}
