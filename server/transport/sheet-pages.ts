/**
 * A long score sheet in pages (`SubscribeRequest.pages`, shared/protocol/wire.ts): the subscribe ack carries the
 * newest SHEET_PAGE_ROWS rows and `sheetFrom`; the older rows follow as `sheetPage` messages to that connection,
 * oldest first, each sent only while the connection holds at most `replyBufferBytes` unsent (./backpressure.ts),
 * waiting for it to drain otherwise. So a reader that stops reading gets one page beyond the bound, never the
 * whole sheet at once. The rows are the snapshot's own (shared by reference, not copied): a page is serialised
 * only when it is sent. The sending stops when the connection closes, leaves the match's `full` room, or asks
 * for the match again (the newer answer has its own pages).
 */
import type { Logger } from 'pino';
import { SHEET_PAGE_ROWS, type SheetPage, type SubscribeAck } from '../../shared/protocol/wire';
import type { SheetRow } from '../../shared/protocol/state';
import { matchRoom } from '../../shared/protocol/rooms';
import { bufferedBytes } from './backpressure';

/** What the pages of one answer need: the sheet at the ack's version and how many of its first rows follow. */
interface PageJob {
  matchId: string;
  version: number;
  rows: readonly SheetRow[];
  upTo: number;
  pageRows: number;
}

/** The connection as the pages see it (a Socket.IO server socket). */
export interface PagedSocket {
  readonly connected: boolean;
  readonly rooms: ReadonlySet<string>;
  conn: unknown;
  data: unknown;
  emit(event: 'sheetPage', page: SheetPage): unknown;
}

/** Acks whose pages follow once they are sent (the ack object is the key: nothing is added to what is sent). */
const jobs = new WeakMap<object, PageJob>();

/** The job of each match now paging on a connection (a newer answer replaces it; the older one stops). */
function current(socket: PagedSocket): Map<string, PageJob> {
  const data = socket.data as { pages?: Map<string, PageJob> };
  return (data.pages ??= new Map());
}

/**
 * The ack of a `full` subscribe for a page that takes pages: unchanged when the sheet has at most `pageRows` rows
 * (default SHEET_PAGE_ROWS), else with only the newest `pageRows` rows and `sheetFrom` (the rest follow, `pageRows`
 * a page, with `sendPages` once it is sent).
 */
export function pagedAck(ack: Extract<SubscribeAck, { detail: 'full'; stats: unknown }>, pageRows = SHEET_PAGE_ROWS): SubscribeAck {
  const rows = ack.stats.sheet;
  if (rows.length <= pageRows) return ack;
  const sheetFrom = rows.length - pageRows;
  const out = { ...ack, sheetFrom, stats: { ...ack.stats, sheet: rows.slice(sheetFrom) } };
  jobs.set(out, { matchId: ack.matchId, version: ack.version, rows, upTo: sheetFrom, pageRows });
  return out;
}

/** Whether `ack` (just sent) has pages to follow. */
export function hasPages(ack: unknown): boolean {
  return typeof ack === 'object' && ack !== null && jobs.has(ack);
}

/**
 * Send the pages of `ack` (sent just now on `socket`) while the match's `full` room holds the connection, each only once the connection holds at most `boundBytes` unsent. Resolves when done or stopped.
 */
export async function sendPages(socket: PagedSocket, ack: object, boundBytes: number, log: Logger): Promise<void> {
  const job = jobs.get(ack);
  if (!job) return;
  jobs.delete(ack);
  const room = matchRoom(job.matchId, 'full');
  const paging = current(socket);
  paging.set(job.matchId, job);
  const mine = () => paging.get(job.matchId) === job && socket.connected && socket.rooms.has(room);
  let sent = 0;
  let waits = 0;
  let maxHeld = 0;
  try {
    for (let from = 0; from < job.upTo; from += job.pageRows) {
      // Checked again right before the page goes out (nothing awaited in between): it is sent only under the bound.
      while (mine() && bufferedBytes(socket) > boundBytes) {
        waits++;
        await drained(socket);
      }
      if (!mine()) break;
      maxHeld = Math.max(maxHeld, bufferedBytes(socket));
      socket.emit('sheetPage', { matchId: job.matchId, version: job.version, from, rows: job.rows.slice(from, Math.min(job.upTo, from + job.pageRows)) });
      sent++;
    }
  } catch (err) {
    log.warn({ matchId: job.matchId, err: (err as Error).message }, 'score sheet pages not sent');
  } finally {
    if (paging.get(job.matchId) === job) paging.delete(job.matchId);
    const pages = Math.ceil(job.upTo / job.pageRows);
    log.debug(
      { matchId: job.matchId, version: job.version, pages, sent, waits, maxBufferedBytes: maxHeld },
      sent === pages ? 'score sheet pages sent' : 'score sheet pages stopped',
    );
  }
}

interface Conn {
  once(event: 'drain' | 'close', cb: () => void): unknown;
  off(event: 'drain' | 'close', cb: () => void): unknown;
}

/** Wait for the connection's next `drain` (its queue handed to the network) or close, at most a second. */
function drained(socket: PagedSocket): Promise<void> {
  const conn = socket.conn as Conn;
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      conn.off('drain', done);
      conn.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, 1000);
    conn.once('drain', done);
    conn.once('close', done);
  });
}
