/**
 * Benchmark child: Socket.IO viewers (websocket only) subscribed to one match on one server; each `start`
 * message connects `count` more and answers `ready`.
 * For each pushed version it notes when the LAST of its viewers received it (process.hrtime, CLOCK_MONOTONIC,
 * comparable across processes on one machine) and reports `{type:'done', version, at}` over IPC.
 */
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '../shared/protocol/wire';

type Start = { type: 'start'; url: string; count: number; matchId: string };

const send = (m: unknown) => process.send!(m);
const sockets: Socket[] = [];
const received = new Map<number, number>();
let expected = 0;

function connectOne(url: string, matchId: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = io(url, { transports: ['websocket'], forceNew: true, reconnection: false, timeout: 30_000 });
    s.on('state', (p: { version: number }) => {
      const n = (received.get(p.version) ?? 0) + 1;
      received.set(p.version, n);
      if (n === expected) {
        send({ type: 'done', version: p.version, at: process.hrtime.bigint().toString() });
        received.delete(p.version);
      }
    });
    s.once('connect_error', reject);
    s.once('connect', () => {
      s.timeout(30_000).emit('subscribe', { protocol: PROTOCOL_VERSION, matchId }, (err: Error | null, ack: { ok: boolean }) => {
        if (err || !ack?.ok) reject(err ?? new Error(`subscribe refused: ${JSON.stringify(ack)}`));
        else resolve(s);
      });
    });
  });
}

process.on('message', async (m: Start | { type: 'stop' }) => {
  if (m.type === 'stop') {
    for (const s of sockets) s.close();
    process.exit(0);
  }
  // Connect in batches so the server's accept queue is not flooded.
  const batch = 50;
  for (let i = 0; i < m.count; i += batch) {
    const n = Math.min(batch, m.count - i);
    const got = await Promise.all(Array.from({ length: n }, () => connectOne(m.url, m.matchId)));
    sockets.push(...got);
  }
  expected = sockets.length;
  send({ type: 'ready', count: sockets.length });
});
