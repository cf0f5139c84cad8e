/**
 * Socket.IO protocol (typed by shared/protocol/wire):
 * - `subscribe {matchId, sinceVersion?}` → joins room `match:<id>`, ack `{ok, setup, matchId, version, state, stats}`;
 * - `unsubscribe {matchId}` → leaves the room;
 * - `record {matchId, eventId, expectedVersion?, step}` with the scorer token in the handshake `auth.token`
 *   → ack `RecordAck`; the new state is pushed to the room as `state` (StatePush) on every instance.
 * `subscribe` and `record` must be emitted with an acknowledgement callback: without one they are ignored
 * (nothing recorded, no answer). A bad envelope is refused with `invalid-request` naming the field, a bad
 * step with `invalid-step`, a message over MAX_MESSAGE_BYTES with `too-large` (the connection stays open);
 * a frame over `maxFrameBytes` (app.ts) closes the connection.
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

const rooms = new Map<string, string>();
/**
 * Room of a match's viewers, `match:<id>`. The string is interned, so thousands of viewers of one match
 * share one copy in their room sets.
 */
export function roomOf(matchId: string): string {
  let room = rooms.get(matchId);
  if (room === undefined) {
    if (rooms.size >= 10_000) rooms.clear();
    room = `match:${matchId}`;
    rooms.set(matchId, room);
  }
  return room;
}

export interface SocketLimits {
  /** Sustained messages per second per connection. */
  messagesPerSecond: number;
  /** Burst allowance (bucket size). */
  burst: number;
  /** Rooms one connection may be in at once. */
  maxSubscriptions: number;
}

/** Token-bucket state of one connection, kept in `socket.data` (two numbers, created on its first message). */
interface BucketState {
  tokens?: number;
  last?: number;
}

/** Token bucket: false when the connection is over `rate` messages per second (bucket of `size`). */
export function takeToken(state: BucketState, rate: number, size: number, now = performance.now()): boolean {
  const tokens = Math.min(size, (state.tokens ?? size) + ((now - (state.last ?? now)) / 1000) * rate);
  state.last = now;
  if (tokens < 1) {
    state.tokens = tokens;
    return false;
  }
  state.tokens = tokens - 1;
  return true;
}

const RATE_LIMITED: ApiError = { code: 'rate-limited', message: 'too many messages on this connection; slow down' };

/**
 * Attach the protocol handlers to `io`. The handlers are created once and shared by every connection (they
 * read the socket from `this`), so a connected viewer costs no closures of its own.
 */
export function attachProtocol(io: IoServer, matches: MatchService, log: Logger, limits: SocketLimits): void {
  const allowed = (socket: IoSocket) => takeToken(socket.data as BucketState, limits.messagesPerSecond, limits.burst);

  async function onSubscribe(this: IoSocket, req: unknown, ack: unknown): Promise<void> {
    if (typeof ack !== 'function') return;
    const reply = ack as (res: SubscribeAck) => void;
    if (!allowed(this)) return reply({ ok: false, error: RATE_LIMITED });
    const parsed = parseSubscribeMessage(req);
    if (!parsed.ok) return reply(parsed);
    const { matchId } = parsed.value;
    const room = roomOf(matchId);
    if (!this.rooms.has(room) && this.rooms.size - 1 >= limits.maxSubscriptions) {
      return reply({ ok: false, error: { code: 'rate-limited', message: `at most ${limits.maxSubscriptions} matches per connection`, field: 'matchId' } });
    }
    try {
      // Join before reading, so no push between the read and the join can be missed.
      this.join(room);
      const cur = await matches.current(matchId);
      if (!cur) {
        this.leave(room);
        return reply({ ok: false, error: { code: 'not-found', message: `matchId: no match "${matchId}"`, field: 'matchId' } });
      }
      reply({ ok: true, setup: cur.setup, ...cur.snapshot });
    } catch (err) {
      log.error({ matchId, err: (err as Error).message }, 'subscribe failed');
      reply({ ok: false, error: { code: 'internal', message: 'could not read the match; retry' } });
    }
  }

  function onUnsubscribe(this: IoSocket, req: unknown): void {
    const matchId = (req as { matchId?: unknown } | undefined)?.matchId;
    if (typeof matchId === 'string') this.leave(roomOf(matchId));
  }

  async function onRecord(this: IoSocket, req: unknown, ack: unknown): Promise<void> {
    if (typeof ack !== 'function') return;
    const reply = ack as (res: RecordAck) => void;
    if (!allowed(this)) return reply({ ok: false, error: RATE_LIMITED });
    const parsed = parseRecordMessage(req);
    if (!parsed.ok) return reply(parsed);
    const { matchId, eventId, expectedVersion, step } = parsed.value;
    const auth = this.handshake.auth as { token?: unknown } | undefined;
    const token = typeof auth?.token === 'string' ? auth.token : '';
    const res = await matches.record(matchId, token, { eventId, expectedVersion, step });
    if (!res.ok) {
      // Without a token this connection is a viewer: it may not record.
      if (res.error.code === 'unauthorized') return reply({ ok: false, error: { code: 'forbidden', message: 'viewer connections may not record; connect with the scorer token', field: 'token' } });
      return reply(res);
    }
    reply({ ok: true, ...res.snapshot, ...(res.duplicate ? { duplicate: true } : {}) });
  }

  io.on('connection', (socket: IoSocket) => {
    socket.on('subscribe', onSubscribe as never);
    socket.on('unsubscribe', onUnsubscribe as never);
    socket.on('record', onRecord as never);
  });
}
