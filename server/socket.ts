/**
 * Socket.IO protocol (typed by shared/protocol/wire):
 * - `subscribe {matchId, sinceVersion?}` → joins room `match:<id>`, ack `{ok, setup, matchId, version, state, stats}`;
 * - `unsubscribe {matchId}` → leaves the room;
 * - `record {matchId, eventId, expectedVersion?, step}` with the scorer token in the handshake `auth.token`
 *   → ack `RecordAck`; the new state is pushed to the room as `state` (StatePush) on every instance.
 * Every message is size-capped, schema-checked and rate-limited per connection before it reaches the engine.
 */
import type { Server, Socket } from 'socket.io';
import type { Logger } from 'pino';
import type { ClientToServerEvents, RecordAck, ServerToClientEvents, SubscribeAck } from '../shared/protocol/wire';
import type { ApiError } from '../shared/protocol/errors';
import type { MatchService } from './matches';
import { parseRecordMessage, parseSubscribeMessage } from './validate';

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents>;
type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

/** Room of a match's viewers. */
export const roomOf = (matchId: string) => `match:${matchId}`;

export interface SocketLimits {
  /** Sustained messages per second per connection. */
  messagesPerSecond: number;
  /** Burst allowance (bucket size). */
  burst: number;
  /** Rooms one connection may be in at once. */
  maxSubscriptions: number;
}

/** Token bucket: `take()` is false when the connection is over its rate. */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();
  constructor(
    private readonly rate: number,
    private readonly size: number,
  ) {
    this.tokens = size;
  }
  take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.size, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

const RATE_LIMITED: ApiError = { code: 'rate-limited', message: 'too many messages on this connection; slow down' };

/** Attach the protocol handlers to `io`. */
export function attachProtocol(io: IoServer, matches: MatchService, log: Logger, limits: SocketLimits): void {
  io.on('connection', (socket: IoSocket) => {
    const bucket = new TokenBucket(limits.messagesPerSecond, limits.burst);
    const auth = socket.handshake.auth as { token?: unknown } | undefined;
    const token = typeof auth?.token === 'string' ? auth.token : undefined;

    socket.on('subscribe', async (req, ack) => {
      if (typeof ack !== 'function') return;
      const reply = (res: SubscribeAck) => ack(res);
      if (!bucket.take()) return reply({ ok: false, error: RATE_LIMITED });
      const parsed = parseSubscribeMessage(req);
      if (!parsed.ok) return reply(parsed);
      const { matchId } = parsed.value;
      const room = roomOf(matchId);
      if (!socket.rooms.has(room) && socket.rooms.size - 1 >= limits.maxSubscriptions) {
        return reply({ ok: false, error: { code: 'rate-limited', message: `at most ${limits.maxSubscriptions} matches per connection`, field: 'matchId' } });
      }
      try {
        // Join before reading, so no push between the read and the join can be missed.
        socket.join(room);
        const cur = await matches.current(matchId);
        if (!cur) {
          socket.leave(room);
          return reply({ ok: false, error: { code: 'not-found', message: `matchId: no match "${matchId}"`, field: 'matchId' } });
        }
        reply({ ok: true, setup: cur.setup, ...cur.snapshot });
      } catch (err) {
        log.error({ matchId, err: (err as Error).message }, 'subscribe failed');
        reply({ ok: false, error: { code: 'internal', message: 'could not read the match; retry' } });
      }
    });

    socket.on('unsubscribe', (req) => {
      const matchId = (req as { matchId?: unknown } | undefined)?.matchId;
      if (typeof matchId === 'string') socket.leave(roomOf(matchId));
    });

    socket.on('record', async (req, ack) => {
      if (typeof ack !== 'function') return;
      const reply = (res: RecordAck) => ack(res);
      if (!bucket.take()) return reply({ ok: false, error: RATE_LIMITED });
      const parsed = parseRecordMessage(req);
      if (!parsed.ok) return reply(parsed);
      const { matchId, eventId, expectedVersion, step } = parsed.value;
      const res = await matches.record(matchId, token ?? '', { eventId, expectedVersion, step });
      if (!res.ok) {
        // Without a token this connection is a viewer: it may not record.
        if (res.error.code === 'unauthorized') return reply({ ok: false, error: { code: 'forbidden', message: 'viewer connections may not record; connect with the scorer token', field: 'token' } });
        return reply(res);
      }
      reply({ ok: true, ...res.snapshot, ...(res.duplicate ? { duplicate: true } : {}) });
    });
  });
}
