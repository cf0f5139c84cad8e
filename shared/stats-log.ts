/**
 * Where the statistics keep the score sheet and the rack totals (shared/stats.ts): an append-only log of
 * fixed-width records in one `Int32Array` (and the ball numbers in a `Uint8Array` beside it), so a step adds
 * no object to the heap. A shot writes one row record (the whole row of its inning as it now stands) and, when
 * it scored, one rack record (the whole rack total). A version of the statistics is a log and an end: its
 * sheet row `i` is the newest record of slot `i` before that end, its rack totals the newest record of each
 * rack.
 *
 * Records are never changed once written, so every version sharing a log reads the same records below its end.
 * A version whose end is the log's end appends in place (O(1)); any other (an older version, after an undo)
 * starts a new log with the same records below its end (`writable`). Each log knows the line of logs it was
 * started from (`origin`), so `commonEnd` finds how many records two versions share.
 */

/** Int32 fields per record. */
export const W = 8;
/**
 * Row record: [slot ≥ 0, flags, inning, rack, points, penalty, total, balls at]. Flags: bit 0 player B, bit 1 the
 * inning is open, bit 2 the row lists its balls (Rotation), bits 3–5 the mark's index in `MARK_LIST`, bits 8 and
 * up the number of balls (at `balls at` in the log's ball store).
 */
export const SLOT = 0,
  FLAGS = 1,
  INNING = 2,
  RACK = 3,
  POINTS = 4,
  PENALTY = 5,
  TOTAL = 6,
  BALLS_AT = 7;
/**
 * Rack record: [−1 − rack, A's points, B's points, A's balls at, A's ball count, B's balls at, B's ball count, 0]
 * (the balls each player scored in the rack, in the log's ball store; none in 14-1).
 */
export const RP0 = 1,
  RP1 = 2,
  RB0_AT = 3,
  RB0_N = 4,
  RB1_AT = 5,
  RB1_N = 6;

/**
 * Where a log began: the log it was started from (known by its `key`, so the older log is not kept alive) and at
 * which of its records, and where that one began in turn. Two versions share the records below where their
 * lines meet (`commonEnd`).
 */
export interface Origin {
  readonly key: object;
  readonly end: number;
  /** Number of origins after this one. */
  readonly depth: number;
  readonly next: Origin | null;
}

/** One log of records: its own records from absolute index `base` on, the older ones in `parent`. */
export interface StatsLog {
  readonly parent: StatsLog | null;
  /** Absolute index of this log's first record; records below it are read from `parent`. */
  readonly base: number;
  /** Identity of this log in the origins of the logs started from it. */
  readonly key: object;
  /** The log this one was started from, or null for a match's first log (or one read from a snapshot). */
  readonly origin: Origin | null;
  /** Absolute index after its newest record. */
  len: number;
  /** Its records, record `i` at `(i − base) · W`; replaced by a larger copy when full. */
  rec: Int32Array;
  /** Ball numbers of its records' rows and racks; replaced by a larger copy when full. */
  balls: Uint8Array;
  ballsLen: number;
}

/**
 * A log holding at most this many records of its own is copied when an older version appends to it; a longer
 * one becomes the parent of a new log. So the logs a version reads through stay few even when undo and a new
 * step alternate (as at a won match), and no fork copies much.
 */
const COPY_LIMIT = 64;

/** The ball store of a log that holds no ball yet (14-1's stay so): length 0, so never written to. */
const NO_BALLS = new Uint8Array(0);

/**
 * The log a version ending at `end` in `log` appends to: `log` itself when that version is its newest (in
 * place), else a new log holding the same records below `end` (`log`'s own records copied when they are few,
 * else read through `log`). `log` null: a match's first log. `cut`: no version past `end` in `log` (or in a log
 * started from it) is kept by anyone (a replay drops the steps an undo took back), so `log` is cut back to `end`
 * and appended to in place.
 */
export function writable(log: StatsLog | null, end: number, cut = false): StatsLog {
  if (log !== null && (log.len === end || (cut && end >= log.base))) {
    log.len = end;
    return log;
  }
  if (log === null) return { parent: null, base: 0, key: {}, origin: null, len: 0, rec: new Int32Array(256 * W), balls: NO_BALLS, ballsLen: 0 };
  const origin: Origin = { key: log.key, end, depth: log.origin ? log.origin.depth + 1 : 0, next: log.origin };
  const own = end - log.base;
  if (own > COPY_LIMIT) return { parent: log, base: end, key: {}, origin, len: end, rec: new Int32Array(16 * W), balls: NO_BALLS, ballsLen: 0 };
  const rec = new Int32Array(Math.max(16, 2 * own) * W);
  rec.set(log.rec.subarray(0, own * W));
  const balls = log.ballsLen > 0 ? log.balls.slice(0, 2 * log.ballsLen) : NO_BALLS;
  return { parent: log.parent, base: log.base, key: {}, origin, len: end, rec, balls, ballsLen: log.ballsLen };
}

/** Append a record to `log` (its fields zero); returns its offset in `log.rec`. */
export function pushRecord(log: StatsLog): number {
  const at = (log.len - log.base) * W;
  if (at + W > log.rec.length) {
    const grown = new Int32Array(log.rec.length * 2);
    grown.set(log.rec);
    log.rec = grown;
  }
  log.len++;
  return at;
}

/** Make room for `n` more ball numbers in `log`'s ball store; returns where they go (`ballsLen` is not moved). */
export function roomForBalls(log: StatsLog, n: number): number {
  const at = log.ballsLen;
  if (at + n > log.balls.length) {
    const grown = new Uint8Array(Math.max(log.balls.length * 2, at + n, 64));
    grown.set(log.balls.subarray(0, at));
    log.balls = grown;
  }
  return at;
}

/** The log holding absolute record `i` (`i` below the end of a version in `log`). */
export function logAt(log: StatsLog, i: number): StatsLog {
  let l = log;
  while (i < l.base) l = l.parent!;
  return l;
}

/**
 * Number of records two versions (`a` ending at `aEnd`, `b` at `bEnd`) share: their records below it are the
 * same. O(origins between the two logs); 0 for versions of unrelated logs.
 */
export function commonEnd(a: StatsLog | null, aEnd: number, b: StatsLog | null, bEnd: number): number {
  if (a === null || b === null) return 0;
  let xKey = a.key;
  let yKey = b.key;
  let xEnd = aEnd;
  let yEnd = bEnd;
  let x = a.origin;
  let y = b.origin;
  while (xKey !== yKey) {
    // The side with more origins left steps back first (depth + 1 origins left: x's own, then its next ones).
    const xd = x ? x.depth : -1;
    const yd = y ? y.depth : -1;
    if (xd < 0 && yd < 0) return 0;
    if (xd >= yd) {
      xKey = x!.key;
      xEnd = Math.min(xEnd, x!.end);
      x = x!.next;
    } else {
      yKey = y!.key;
      yEnd = Math.min(yEnd, y!.end);
      y = y!.next;
    }
  }
  return Math.min(xEnd, yEnd);
}

/** The parts of the logs that hold records 0 … `end` − 1 of a version in `log`, oldest first: [log, from, to]. */
export function segmentsOf(log: StatsLog | null, end: number): Array<[StatsLog, number, number]> {
  const out: Array<[StatsLog, number, number]> = [];
  let to = end;
  for (let l = log; l !== null; l = l.parent) {
    if (to > l.base) out.push([l, l.base, to]);
    to = Math.min(to, l.base);
  }
  return out.reverse();
}
