/**
 * Benchmark child for `npm run bench:tables`: table-following viewers, as an OBS overlay of a table does it —
 * each subscribes to a table (`subscribeTable`) and to the table's current match, and moves to the new
 * current match when a `table` push switches it. A `start` message `{url, eventId, tables: [{table, count}]}`
 * connects the viewers and answers `ready`. For each match version it reports when the LAST of its viewers of
 * that match had it (`{type:'done', matchId, version, at}`), and for each table push when the last viewer of
 * the table had it (`{type:'switched', table, current, at}`); `at` is process.hrtime (comparable across
 * processes on one machine).
 */
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '../shared/protocol/wire';
import type { TableState } from '../shared/protocol/event';

type Start = { type: 'start'; url: string; eventId: string; tables: { table: string; count: number }[] };

const send = (m: unknown) => process.send!(m);
const sockets: Socket[] = [];
/** Viewers per table, and how many have each match version / table version. */
const perTable = new Map<string, number>();
const got = new Map<string, number>();

function count(key: string, expected: number, report: () => unknown): void {
  const n = (got.get(key) ?? 0) + 1;
  got.set(key, n);
  if (n === expected) {
    got.delete(key);
    send(report());
  }
}

function connectOne(url: string, eventId: string, table: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = io(url, { transports: ['websocket'], forceNew: true, reconnection: false, timeout: 30_000 });
    let current: string | null = null;
    const follow = (matchId: string | null, done?: () => void) => {
      if (current) s.emit('unsubscribe', { matchId: current });
      current = matchId;
      if (!matchId) return done?.();
      s.timeout(30_000).emit('subscribe', { protocol: PROTOCOL_VERSION, matchId }, (err: Error | null) => (err ? reject(err) : done?.()));
    };
    s.on('state', (p: { matchId: string; version: number }) => {
      if (p.matchId === current)
        count(`${p.matchId}@${p.version}`, perTable.get(table)!, () => ({
          type: 'done',
          matchId: p.matchId,
          version: p.version,
          at: process.hrtime.bigint().toString(),
        }));
    });
    s.on('table', (t: TableState) => {
      if (t.current !== current) follow(t.current);
      count(`${table}#${t.version}`, perTable.get(table)!, () => ({ type: 'switched', table, current: t.current, at: process.hrtime.bigint().toString() }));
    });
    s.once('connect_error', reject);
    s.once('connect', () => {
      s.timeout(30_000).emit('subscribeTable', { protocol: PROTOCOL_VERSION, eventId, table }, (err: Error | null, ack: TableState & { ok: boolean }) => {
        if (err || !ack?.ok) return reject(err ?? new Error(`subscribeTable refused: ${JSON.stringify(ack)}`));
        follow(ack.current, () => resolve(s));
      });
    });
  });
}

process.on('message', async (m: Start | { type: 'stop' }) => {
  if (m.type === 'stop') {
    for (const s of sockets) s.close();
    process.exit(0);
  }
  for (const { table, count: n } of m.tables) {
    perTable.set(table, (perTable.get(table) ?? 0) + n);
    // In batches, so the server's accept queue is not flooded.
    for (let i = 0; i < n; i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => connectOne(m.url, m.eventId, table)));
      sockets.push(...batch);
    }
  }
  send({ type: 'ready', count: sockets.length });
});
