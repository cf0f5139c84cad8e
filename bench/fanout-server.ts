/**
 * Benchmark child: one server process, either a cuecast instance (`cuecast`: Redis store + Redis adapter,
 * rules engine) or a bare Socket.IO server (`bare`: no Redis, no rules; `bcast` is broadcast as is to the
 * room after the ack, like cuecast: ack first, fan-out in the next check phase). Talks to the orchestrator
 * over IPC: sends `{type:'listening', url}`; answers `{type:'heap'}` with the memory after a full GC (heap
 * used, external incl. array buffers, RSS). Run with --expose-gc.
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { startServer } from '../server/backends';

type Msg = { type: 'heap'; id: number } | { type: 'stop' };

const mode = process.env.BENCH_MODE;
const send = (m: unknown) => process.send!(m);

function memoryAfterGc(): { heapUsed: number; external: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, external: m.external, rss: m.rss };
}

let close: () => Promise<void>;
if (mode === 'cuecast') {
  const server = await startServer({
    port: 0,
    redisUrl: process.env.BENCH_REDIS_URL,
    redisPrefix: process.env.BENCH_PREFIX,
    logLevel: 'warn',
    // The benchmark scorer records far faster than a referee; the limit is not what is measured.
    // All viewers connect from 127.0.0.1: the per-address websocket cap would refuse all but 200.
    limits: { messagesPerSecond: 100_000, burst: 100_000, maxSubscriptions: 5, socketsPerAddress: 1_000_000, maxSockets: 1_000_000 },
  });
  close = server.close;
  send({ type: 'listening', url: server.url });
} else if (mode === 'bare') {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'], serveClient: false });
  io.on('connection', (socket) => {
    socket.on('subscribe', (req: { matchId: string }, ack: (r: unknown) => void) => {
      socket.join(`match:${req.matchId}`);
      ack({ ok: true, version: 0 });
    });
    socket.on('bcast', (msg: { matchId: string }, ack: (r: unknown) => void) => {
      ack({ ok: true });
      setImmediate(() => io.to(`match:${msg.matchId}`).emit('state', msg));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  close = () => io.close();
  send({ type: 'listening', url: `http://127.0.0.1:${(http.address() as { port: number }).port}` });
} else {
  throw new Error(`BENCH_MODE must be cuecast or bare, got ${mode}`);
}

process.on('message', async (m: Msg) => {
  if (m.type === 'heap') send({ type: 'heap', id: m.id, ...memoryAfterGc() });
  if (m.type === 'stop') {
    await close();
    process.exit(0);
  }
});
