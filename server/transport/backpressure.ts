/**
 * Slow readers cannot hurt others: what a Socket.IO connection has queued for its client and not yet handed to
 * the network (engine.io's write buffer, then the WebSocket's own buffer and the TCP socket's), and the bounds
 * the server keeps it under (`socket.ts` before each reply, and a sweep of every connection each second):
 * - over `replyBufferBytes`, a subscription's reply (a whole match sheet, a table, an event) is not sent: the
 *   request is answered `rate-limited` ("this connection is not reading its replies"), the client asks again;
 * - over `maxBufferedBytes`, the connection is dropped (a client that stops reading holds at most a few MB).
 * Pushes to rooms stay small (a state and a statistics delta), so they are never held back.
 */
import type { Logger } from 'pino';
import { SharedAck } from './shared-replies';

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
