/**
 * The shot clock's Socket.IO handlers (rows of the one handler table, ./socket.ts): `time` (the
 * server's time, for each page's offset estimate), `shotClock` (read a match's clock) and `shotClockAction`
 * (the scorer's connection: its handshake carries the scorer token).
 */
import type { ShotClockAck, ShotClockActionRequest, ShotClockRequest, TimeAck } from '../../shared/protocol/shot-clock';
import { shotClockActionRequestSchema, shotClockReadSchema, timeSchema } from '../protocol/shot-clock-schemas';
import type { Clock } from '../clock';
import type { Failure } from '../failure';
import { handler, type Handler, type IoSocket } from './socket';
import type { ShotClockResult, ShotClockService } from '../shot-clock/service';

function ack(r: ShotClockResult): ShotClockAck | Failure {
  if (!r.ok) return r;
  return { ok: true, matchId: r.matchId, clock: r.clock, now: r.now, revision: r.revision, ...(r.duplicate ? { duplicate: true } : {}) };
}

/** The clock's handlers over `service`, answering the time from `clock`. */
export function shotClockHandlers(service: ShotClockService, clock: Clock): Handler<unknown, unknown>[] {
  return [
    handler({
      event: 'time',
      schema: timeSchema,
      acked: true,
      internal: 'could not read the time',
      handle: async (): Promise<TimeAck> => ({ ok: true, now: clock.now() }),
    }),
    handler({
      event: 'shotClock',
      schema: shotClockReadSchema,
      acked: true,
      internal: 'could not read the clock; retry',
      handle: async (_socket: IoSocket, { matchId }: ShotClockRequest) => ack(await service.view(matchId)),
    }),
    handler({
      event: 'shotClockAction',
      schema: shotClockActionRequestSchema,
      acked: true,
      internal: 'the clock is unavailable; press again',
      handle: async (socket: IoSocket, { matchId, action, period }: ShotClockActionRequest) => {
        const auth = socket.handshake.auth as { token?: unknown } | undefined;
        const token = typeof auth?.token === 'string' ? auth.token : undefined;
        return ack(await service.act(matchId, { scorerToken: token }, action, period));
      },
    }),
  ];
}
