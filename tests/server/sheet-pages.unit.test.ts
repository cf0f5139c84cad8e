/**
 * The pages of a long score sheet (server/transport/sheet-pages.ts) over a stand-in connection whose unsent
 * bytes the test sets: a page goes out only while the connection holds at most the bound, the next waits for
 * its `drain`; the pages stop when the connection leaves the match's room or asks for the match again. (The
 * same over a real server and a socket that stops reading: tests/server/backpressure.test.ts.)
 */
import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { matchRoom } from '../../shared/protocol/rooms';
import type { SheetRow } from '../../shared/protocol/state';
import type { SheetPage, SubscribeAck } from '../../shared/protocol/wire';
import { hasPages, pagedAck, sendPages, type PagedSocket } from '../../server/transport/sheet-pages';

const log = pino({ level: 'silent' });
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ inning: i }) as unknown as SheetRow);
const ack = (n: number) =>
  ({ ok: true, detail: 'full', setup: {}, matchId: 'm1', version: 9, state: {}, stats: { sheet: rows(n) } }) as unknown as Extract<
    SubscribeAck,
    { detail: 'full'; stats: unknown }
  >;

/** A connection holding `held` bytes unsent (engine.io's write buffer), in the match's full room. */
class Conn extends EventEmitter {
  writeBuffer: { data: string }[] = [];
  hold(bytes: number): void {
    this.writeBuffer = bytes > 0 ? [{ data: 'x'.repeat(bytes) }] : [];
  }
}
function socket(): PagedSocket & { sent: SheetPage[]; conn: Conn; rooms: Set<string> } {
  const sent: SheetPage[] = [];
  return {
    connected: true,
    rooms: new Set([matchRoom('m1', 'full')]),
    conn: new Conn(),
    data: {},
    sent,
    emit: (_e: 'sheetPage', p: SheetPage) => sent.push(p),
  };
}
const ticks = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('score sheet pages', () => {
  it('leave a short sheet whole; cut a long one to its newest rows with sheetFrom', () => {
    expect(pagedAck(ack(10), 10)).toEqual(ack(10));
    expect(hasPages(pagedAck(ack(10), 10))).toBe(false);
    const cut = pagedAck(ack(25), 10) as { sheetFrom: number; stats: { sheet: SheetRow[] } };
    expect(cut.sheetFrom).toBe(15);
    expect(cut.stats.sheet).toEqual(rows(25).slice(15));
    expect(hasPages(cut)).toBe(true);
  });

  it('send a page only while the connection holds at most the bound; the next waits for its drain', async () => {
    const s = socket();
    const a = pagedAck(ack(35), 10);
    s.conn.hold(500);
    const done = sendPages(s, a, 100, log);
    await ticks();
    expect(s.sent).toEqual([]);
    s.conn.hold(0);
    s.conn.emit('drain');
    await ticks();
    expect(s.sent.map((p) => [p.from, p.rows.length, p.version])).toEqual([
      [0, 10, 9],
      [10, 10, 9],
      [20, 5, 9],
    ]);
    await done;
    expect(hasPages(a)).toBe(false); // sent once
  });

  it('stop when the connection leaves the room, or a newer answer for the match takes over', async () => {
    const s = socket();
    s.conn.hold(500);
    const first = sendPages(s, pagedAck(ack(35), 10), 100, log);
    await ticks();
    const second = sendPages(s, pagedAck({ ...ack(35), version: 10 }, 10), 100, log);
    s.conn.hold(0);
    s.conn.emit('drain');
    await first;
    await second;
    expect(s.sent.every((p) => p.version === 10)).toBe(true);
    expect(s.sent).toHaveLength(3);
    const t = socket();
    t.conn.hold(500);
    const left = sendPages(t, pagedAck(ack(35), 10), 100, log);
    t.rooms.clear();
    t.conn.hold(0);
    t.conn.emit('drain');
    await left;
    expect(t.sent).toEqual([]);
  });
});
