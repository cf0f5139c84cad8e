/**
 * Slow readers cannot hurt others: what a Socket.IO connection has queued for its client and not yet handed to
 * the network (engine.io's write buffer, then the WebSocket's own buffer and the TCP socket's), and the bounds
 * the server keeps it under (`socket.ts` before each reply, and a sweep of every connection each second):
 * - over `replyBufferBytes`, a subscription's reply (a whole match sheet, a table, an event) is not sent: the
 *   request is answered `rate-limited` ("this connection is not reading its replies"), the client asks again;
 * - over `maxBufferedBytes`, the connection is dropped (a client that stops reading holds at most a few MB);
 * - beyond its reply budget (`replyBurstBytes`, refilled at `replyBytesPerSecond`: `spendReplyBytes`), a
 *   subscription's reply is not sent either (`rate-limited`, "asks for more than it can be sent"). The kernel's
 *   socket buffers take several MB before the first two bounds see anything, so without the budget a connection
 *   that never reads could have the server write whole sheets into them as fast as the rate limit lets it ask.
 * Pushes to rooms stay small (a state and a statistics delta), so they are never held back.
 */
import type { Logger } from 'pino';
import { SharedAck } from './shared-replies';
import { bucketLevel } from './token-bucket';

/** The parts of an engine.io socket read here (engine.io 6: `writeBuffer` of packets, a `ws` transport). */
interface EngineConn {
  writeBuffer?: { data?: unknown }[];
  transport?: { socket?: { bufferedAmount?: number } };
}

/** Bytes (string length for text) of one queued packet's data. */
function packetBytes(data: unknown): number {
  if (typeof data === 'string') return data.length;
  if (data instanceof SharedAck) return data.length;
  if (data && typeof (data as ArrayBufferLike).byteLength === 'number') return (data as ArrayBufferLike).byteLength;
  return 0;
}

/**
 * What the connection has queued and not yet handed to the kernel: engine.io's write buffer plus the
 * WebSocket's `bufferedAmount` (its sender queue and the TCP socket's writable buffer). 0 when unknown.
 */
export function bufferedBytes(socket: { conn: unknown }): number {
  const conn = socket.conn as EngineConn;
  let n = conn.transport?.socket?.bufferedAmount ?? 0;
  for (const p of conn.writeBuffer ?? []) n += packetBytes(p.data);
  return n;
}

/** The two bounds, per connection (bytes). */
export interface BackpressureLimits {
  /** Over this, a subscription's reply is withheld (`rate-limited`). Default 512 KiB. */
  replyBufferBytes: number;
  /** Over this, the connection is dropped. Default 4 MiB. */
  maxBufferedBytes: number;
  /** Score-sheet rows per page of a paged subscribe answer (./sheet-pages.ts). Default SHEET_PAGE_ROWS (500). */
  sheetPageRows: number;
  /** Bytes of subscription replies a connection may be sent at once (its budget when full). Default 1 MiB. */
  replyBurstBytes: number;
  /** Bytes per second the reply budget refills. Default 256 KiB. */
  replyBytesPerSecond: number;
}

/** A connection's reply budget, kept in `socket.data` (two numbers, created on its first reply). */
export interface ReplyBudget {
  replyBytes?: number;
  replyAt?: number;
}

/** The bytes `budget` holds at `now` (ms): what was left, refilled since, at most `replyBurstBytes`. */
export function replyBudgetLeft(budget: ReplyBudget, limits: BackpressureLimits, now: number): number {
  return bucketLevel(budget.replyBytes, budget.replyAt, limits.replyBytesPerSecond, limits.replyBurstBytes, now);
}

/**
 * Spend `bytes` of `budget` on a reply about to be sent (token bucket in bytes; `now` in ms, a clock set back
 * refills nothing). False, nothing spent, when the budget holds less than `bytes` — unless it is full: a reply
 * larger than the whole burst goes then, and the budget runs into debt (negative) that the refill pays back.
 */
export function spendReplyBytes(budget: ReplyBudget, bytes: number, limits: BackpressureLimits, now: number): boolean {
  const left = replyBudgetLeft(budget, limits, now);
  budget.replyAt = now;
  budget.replyBytes = left;
  if (left < bytes && left < limits.replyBurstBytes) return false;
  budget.replyBytes = left - bytes;
  return true;
}

/** A connection as the sweep sees it. */
interface Swept {
  id: string;
  conn: unknown;
  handshake: { address: string };
  disconnect(close: boolean): unknown;
}

/**
 * Drop `socket` when it holds more than `limits.maxBufferedBytes` unsent; true when dropped (logged with its
 * address and how much it held).
 */
export function dropIfStuck(socket: Swept, limits: BackpressureLimits, log: Logger): boolean {
  const held = bufferedBytes(socket);
  if (held <= limits.maxBufferedBytes) return false;
  log.warn({ socket: socket.id, address: socket.handshake.address, bufferedBytes: held }, 'dropped a connection that stopped reading');
  socket.disconnect(true);
  return true;
}

/**
 * Every `everyMs`, drop the connections of `sockets()` that stopped reading (see `dropIfStuck`).
 * @returns a function that stops the sweep.
 */
export function sweepStuck(sockets: () => Iterable<Swept>, limits: BackpressureLimits, log: Logger, everyMs = 1000): () => void {
  const t = setInterval(() => {
    for (const s of sockets()) dropIfStuck(s, limits, log);
  }, everyMs);
  t.unref();
  return () => clearInterval(t);
}
