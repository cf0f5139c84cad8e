/**
 * Socket.IO protocol (typed by shared/protocol/wire, checked by server/protocol/wire-schemas):
 * - `subscribe {protocol, matchId, sinceVersion?, detail?, pages?}` → joins room `match:<id>` (detail `full`, the
 *   default: ack `{ok, detail, setup, matchId, version, state, stats}`) or `scorebug:<id>` (ack with the
 *   scorebug's `figures`, average and racks won, instead of `stats`), leaving the match's other room; a connection
 *   already in the room that names the latest version as `sinceVersion` gets `{ok, detail, matchId, version,
 *   unchanged: true}` (no snapshot); with `pages` a sheet over SHEET_PAGE_ROWS rows comes in pages (`sheetFrom`
 *   in the ack, then `sheetPage`s: ./sheet-pages.ts);
 * - `unsubscribe {matchId}` → leaves the match's rooms (no ack);
 * - `record {protocol, matchId, stepId, expectedVersion?, step}` with the scorer token in the handshake
 *   `auth.token` → ack `RecordAck`; the new state is pushed as `state` (StatePush) on every instance, to the
 *   full room with what changed in the statistics (`stats`, a StatsDelta) and to the scorebug room without.
 *
 * Every event is one row of `handlers()` (its envelope schema and what it does with a valid request), and
 * one listener runs them all in the same order: the ack check (`subscribe` and `record` must be emitted with
 * an acknowledgement callback: without one they are ignored, nothing recorded, no answer), the rate limit
 * per connection (`rate-limited`), the size cap (`too-large` over MAX_MESSAGE_BYTES; the connection stays
 * open; a frame over `maxFrameBytes` (app.ts) closes it), the envelope parse (`protocol-mismatch` for
 * another protocol version, `invalid-request` naming the field, `invalid-step` for a bad step) and the
 * mapping of an unexpected exception to `internal`. Only then does a handler run. The table and event
 * subscriptions (server/transport/socket-tournaments.ts) are rows of the same table, passed in by the server.
 */
import type { Server, Socket } from 'socket.io';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type {
  ClientToServerEvents,
  Detail,
  RecordAck,
  RecordRequest,
  ServerToClientEvents,
  SubscribeAck,
  SubscribeRequest,
  UnsubscribeRequest,
} from '../../shared/protocol/wire';
import { recordSchema, subscribeSchema, unsubscribeSchema } from '../protocol/wire-schemas';
import { systemClock, type Clock } from '../clock';
import { fail, type Failure } from '../failure';
import { storeErrorOf } from '../storage/store-errors';
import type { MatchService } from '../matches/service';
import { oversize, parseEnvelope } from '../matches/validate';
import { matchRoom } from '../../shared/protocol/rooms';
import { bufferedBytes, dropIfStuck, replyBudgetLeft, spendReplyBytes, sweepStuck, type BackpressureLimits, type ReplyBudget } from './backpressure';
import { hasPages, pagedAck, sendPages } from './sheet-pages';
import { bucketLevel } from './token-bucket';
import { replyBytes, shareReply } from './shared-replies';
import { overRoomCap as overCap, overRoomCapAfterRead, readingFor } from './room-cap';

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents>;
export type IoSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

const rooms = new Map<string, { full: string; scorebug: string }>();
/**
 * Room of a match's viewers at one detail (`matchRoom`, shared/protocol/rooms.ts: `match:<id>` or
 * `scorebug:<id>`). The strings are interned, so thousands of viewers of one match share one copy in their
 * room sets.
 */
export function roomOf(matchId: string, detail: Detail = 'full'): string {
  let pair = rooms.get(matchId);
  if (pair === undefined) {
    if (rooms.size >= 10_000) rooms.clear();
    pair = { full: matchRoom(matchId, 'full'), scorebug: matchRoom(matchId, 'scorebug') };
    rooms.set(matchId, pair);
  }
  return pair[detail];
}

export { matchOfRoom } from '../../shared/protocol/rooms';

export interface SocketLimits extends BackpressureLimits {
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

/**
 * Token bucket: false when the connection is over `rate` messages per second (bucket of `size`); `now` in ms
 * (a clock set back refills nothing, never drains the bucket).
 */
export function takeToken(state: BucketState, rate: number, size: number, now: number): boolean {
  const tokens = bucketLevel(state.tokens, state.last, rate, size, now);
  state.last = now;
  if (tokens < 1) {
    state.tokens = tokens;
    return false;
  }
  state.tokens = tokens - 1;
  return true;
}

/**
 * One client-to-server event: its envelope schema and what it does with a request that passed it.
 * `Res` is the ack (`void` for an event without one); a handler answers a refusal with a `Failure`.
 */
export interface Handler<Req, Res> {
  event: keyof ClientToServerEvents;
  schema: z.ZodType<Req>;
  /** True: must be emitted with an acknowledgement callback (ignored without one), answered with `Res`. */
  acked: boolean;
  /** What the client hears when `handle` throws (`internal`). */
  internal: string;
  /** A property, not a method, so its parameter is checked strictly against the schema's output. */
  handle: (socket: IoSocket, req: Req) => Promise<Res | Failure>;
}

/** Type-check one entry against its request and ack types, then erase them for the registry. */
export function handler<Req, Res>(h: Handler<Req, Res>): Handler<unknown, unknown> {
  return h as unknown as Handler<unknown, unknown>;
}

/**
 * `rate-limited` when `socket` already counts `maxSubscriptions` subscriptions besides `room` (matches, tables and
 * events together; only those whose read finished count: ./room-cap.ts), else null. `field` names the request's
 * field in the refusal.
 */
export function overRoomCap(socket: IoSocket, room: string, limits: SocketLimits, field: string): Failure | null {
  return overCap(socket, room, limits.maxSubscriptions, field);
}

/**
 * Join `room` (leaving `replaces`, the match's other detail, when given) and run the subscription's `read`; the
 * room counts toward the cap only once the read finished, and is checked against it then. When the read finds
 * nothing (a refusal), throws, or the connection is over the cap by then, the room is left again (and
 * `replaces` joined again if the connection was in it).
 */
export async function subscribeRoom<T>(
  socket: IoSocket,
  room: string,
  limits: SocketLimits,
  field: string,
  read: () => Promise<T | Failure>,
  replaces?: string,
): Promise<T | Failure> {
  const wasOther = replaces !== undefined && socket.rooms.has(replaces);
  // Join before reading, so no push between the read and the join can be missed.
  socket.join(room);
  if (replaces !== undefined) socket.leave(replaces);
  const undo = () => {
    socket.leave(room);
    if (wasOther) socket.join(replaces!);
  };
  // A read that finds nothing (or throws) leaves the room while it is still in flight, so it is never counted.
  const res = await readingFor(socket, room, async () => {
    try {
      const r = await read();
      if (r !== null && typeof r === 'object' && 'ok' in r && r.ok === false) undo();
      return r;
    } catch (err) {
      undo();
      throw err;
    }
  });
  if (!socket.rooms.has(room)) return res;
  const over = overRoomCapAfterRead(socket, room, limits.maxSubscriptions, field);
  if (over) undo();
  return over ?? res;
}

type FullAck = Extract<SubscribeAck, { detail: 'full'; stats: unknown }>;
/**
 * The `full` subscribe ack of each snapshot (the live cache keeps one snapshot object per version): every
 * connection that asks for the match at that version gets the same object, serialised once (./shared-replies.ts).
 */
const fullAcks = new WeakMap<object, FullAck>();
function fullAck(setup: FullAck['setup'], snapshot: Omit<FullAck, 'ok' | 'detail' | 'setup'>): FullAck {
  let ack = fullAcks.get(snapshot);
  if (ack?.setup !== setup) {
    ack = shareReply({ ok: true as const, detail: 'full' as const, setup, ...snapshot });
    fullAcks.set(snapshot, ack);
  }
  return ack;
}

/** The protocol's handlers over `matches`: one row per event. */
function handlers(matches: MatchService, limits: SocketLimits): Handler<unknown, unknown>[] {
  /** Join the match's room for `detail` (leaving its other room) and answer with its snapshot. */
  async function subscribe(socket: IoSocket, { matchId, detail = 'full', sinceVersion, pages }: SubscribeRequest): Promise<SubscribeAck | Failure> {
    const room = roomOf(matchId, detail);
    const other = roomOf(matchId, detail === 'full' ? 'scorebug' : 'full');
    // Already in the room and already at the latest version: the pushes keep it current, the reply is a line.
    if (socket.rooms.has(room) && sinceVersion !== undefined) {
      const cur = await matches.currentState(matchId);
      if (cur && cur.version === sinceVersion) return { ok: true, detail, matchId, version: cur.version, unchanged: true };
    }
    // Switching a match's detail moves the connection from one room to the other: no new subscription.
    const over = socket.rooms.has(other) ? null : overRoomCap(socket, room, limits, 'matchId');
    if (over) return over;
    return subscribeRoom(
      socket,
      room,
      limits,
      'matchId',
      async (): Promise<SubscribeAck | Failure> => {
        if (detail === 'full') {
          const cur = await matches.current(matchId);
          if (!cur) return fail('not-found', `matchId: no match "${matchId}"`, 'matchId');
          const ack = fullAck(cur.setup, cur.snapshot);
          return pages ? pagedAck(ack, limits.sheetPageRows) : ack;
        }
        const cur = await matches.currentState(matchId);
        if (!cur) return fail('not-found', `matchId: no match "${matchId}"`, 'matchId');
        return { ok: true, detail, setup: cur.setup, matchId: cur.matchId, version: cur.version, state: cur.state, figures: cur.figures };
      },
      other,
    );
  }

  async function unsubscribe(socket: IoSocket, { matchId }: UnsubscribeRequest): Promise<void> {
    // Both left at once (no await in between), so a subscribe right behind it finds the room free.
    await Promise.all([socket.leave(roomOf(matchId, 'full')), socket.leave(roomOf(matchId, 'scorebug'))]);
  }

  /** Record a step with the token of the connection's handshake. */
  async function record(socket: IoSocket, { matchId, stepId, expectedVersion, step }: RecordRequest<unknown>): Promise<RecordAck | Failure> {
    const auth = socket.handshake.auth as { token?: unknown } | undefined;
    const token = typeof auth?.token === 'string' ? auth.token : '';
    const res = await matches.record(matchId, token, { stepId, expectedVersion, step });
    if (!res.ok) {
      // Without a token this connection is a viewer: it may not record.
      if (res.error.code === 'unauthorized') return fail('forbidden', 'viewer connections may not record; connect with the scorer token', 'token');
      return res;
    }
    const { matchId: id, version, state, figures, stats } = res;
    return {
      ok: true,
      matchId: id,
      version,
      state,
      ...(figures ? { figures } : {}),
      ...(stats ? { stats } : {}),
      ...(res.duplicate ? { duplicate: true } : {}),
    };
  }

  return [
    handler({ event: 'subscribe', schema: subscribeSchema, acked: true, internal: 'could not read the match; retry', handle: subscribe }),
    handler({ event: 'unsubscribe', schema: unsubscribeSchema, acked: false, internal: 'could not leave the match', handle: unsubscribe }),
    handler({ event: 'record', schema: recordSchema, acked: true, internal: 'the step log is unavailable; retry with the same stepId', handle: record }),
  ];
}

/**
 * Attach the protocol handlers to `io`. One listener per event is created here and shared by every
 * connection (it reads the socket from `this`), so a connected viewer costs no closures of its own. The rate
 * limit per connection counts time by `clock`. Slow readers (./backpressure.ts): before each reply a
 * connection over `maxBufferedBytes` is dropped and a subscription's reply is withheld (`rate-limited`) over
 * `replyBufferBytes` or beyond the connection's reply budget (and not even read when the connection is over
 * the bound or out of budget as the request comes in); a paged sheet's pages wait while it is over the bound;
 * a sweep each second drops the stuck ones. Returns a function that stops the sweep.
 */
export function attachProtocol(
  io: IoServer,
  matches: MatchService,
  log: Logger,
  limits: SocketLimits,
  more: Handler<unknown, unknown>[] = [],
  clock: Clock = systemClock,
): () => void {
  const rateLimited = fail('rate-limited', 'too many messages on this connection; slow down');
  const notReading = fail('rate-limited', 'this connection is not reading its replies: the subscription is kept, ask again for the snapshot');
  const overBudget = fail(
    'rate-limited',
    'this connection asks for more than it can be sent: the subscription is kept, ask again for the snapshot in a moment',
  );
  const subscription = (h: Handler<unknown, unknown>) => h.event.startsWith('subscribe');
  /** The refusal of a subscription's reply (built, about to be sent) on `socket`, or null to send it (its bytes spent). */
  function withheld(socket: IoSocket, res: unknown): Failure | null {
    if ((res as { ok?: boolean }).ok !== true || 'unchanged' in (res as object)) return null;
    if (bufferedBytes(socket) > limits.replyBufferBytes) return notReading;
    return spendReplyBytes(socket.data as ReplyBudget, replyBytes(res), limits, clock.now()) ? null : overBudget;
  }

  /** The answer to one message: refusals of the shared checks, else the handler's (a throw is `internal`). */
  async function answer(socket: IoSocket, h: Handler<unknown, unknown>, input: unknown): Promise<unknown> {
    if (!takeToken(socket.data as BucketState, limits.messagesPerSecond, limits.burst, clock.now())) return rateLimited;
    const parsed = oversize(input) ?? parseEnvelope(h.schema, input);
    if (!parsed.ok) return parsed;
    // Over the bound already: a subscription is refused before its snapshot is read and built.
    if (subscription(h) && bufferedBytes(socket) > limits.replyBufferBytes) return notReading;
    if (subscription(h) && replyBudgetLeft(socket.data as ReplyBudget, limits, clock.now()) <= 0) return overBudget;
    try {
      return await h.handle(socket, parsed.value);
    } catch (err) {
      const { matchId, stepId } = parsed.value as { matchId?: string; stepId?: string };
      log.error({ event: h.event, matchId, stepId, err: (err as Error).message }, 'socket handler failed');
      // A full store (disk, Redis memory) refused before writing anything: say so, as the REST routes do.
      const known = storeErrorOf(err);
      if (known) return fail(known.code, known.message);
      return fail('internal', h.internal);
    }
  }

  const listen = (h: Handler<unknown, unknown>) =>
    async function (this: IoSocket, input: unknown, ack: unknown): Promise<void> {
      // Emitted with a callback and no request (`emitWithAck('time')`): the callback comes first; the request is
      // missing, and the envelope check says so (or, for `time`, which needs nothing, the time is answered).
      if (typeof input === 'function' && ack === undefined) [input, ack] = [undefined, input];
      if (!h.acked) {
        await answer(this, h, input);
        return;
      }
      if (typeof ack !== 'function') return;
      const res = await answer(this, h, input);
      // A client that stopped reading: dropped over the hard bound; a large reply waits while over the soft one.
      if (dropIfStuck(this, limits, log)) return;
      const refusal = subscription(h) ? withheld(this, res) : null;
      (ack as (res: unknown) => void)(refusal ?? res);
      // A paged score sheet: its older rows follow, each while the connection reads (./sheet-pages.ts).
      if (!refusal && hasPages(res)) void sendPages(this, res as object, limits.replyBufferBytes, log);
    };

  const listeners = [...handlers(matches, limits), ...more].map((h) => [h.event, listen(h)] as const);
  io.on('connection', (socket: IoSocket) => {
    for (const [event, listener] of listeners) socket.on(event, listener as never);
  });
  return sweepStuck(() => io.of('/').sockets.values(), limits, log);
}
