/**
 * The subscription cap of a connection (`maxSubscriptions` rooms: matches, tables and events together), counted
 * after the reads: a subscription joins its room before its read (so no push between the read and the join is
 * missed), but only a subscription whose read finished counts toward the cap. So in a burst of subscribes, one
 * that finds nothing (and leaves again) never crowds out another, and the cap is checked twice: before the read
 * (against the subscriptions already counted: no read for a connection that is full) and after it (against
 * those counted meanwhile: the one over the cap leaves its room again and is refused).
 */
import { fail, type Failure } from '../failure';

/** A connection as the cap sees it (a Socket.IO server socket). */
export interface CappedSocket {
  readonly id: string;
  readonly rooms: ReadonlySet<string>;
  data: unknown;
}

/** Rooms of `socket` with a subscription read in flight, and how many. */
function inFlight(socket: CappedSocket): Map<string, number> {
  const data = socket.data as { reading?: Map<string, number> };
  return (data.reading ??= new Map());
}

/** The counted subscriptions of `socket` other than `room`: rooms joined whose read finished. */
function countedBesides(socket: CappedSocket, room: string): number {
  const reading = inFlight(socket);
  let n = 0;
  for (const r of socket.rooms) if (r !== socket.id && r !== room && !reading.has(r)) n++;
  return n;
}

const refusal = (max: number, field: string) => fail('rate-limited', `at most ${max} subscriptions (matches, tables, events) per connection`, field);

/**
 * Before the read: `rate-limited` (naming `field`) when `socket` already counts `max` subscriptions besides
 * `room`, else null (a room whose subscription is counted already is no new one).
 */
export function overRoomCap(socket: CappedSocket, room: string, max: number, field: string): Failure | null {
  return countedBesides(socket, room) < max ? null : refusal(max, field);
}

/** After the read (the room joined): the same check against the subscriptions counted meanwhile. */
export function overRoomCapAfterRead(socket: CappedSocket, room: string, max: number, field: string): Failure | null {
  return overRoomCap(socket, room, max, field);
}

/** Run the subscription read of `room` (joined already): the room does not count toward the cap until it ends. */
export async function readingFor<T>(socket: CappedSocket, room: string, read: () => Promise<T>): Promise<T> {
  const reading = inFlight(socket);
  reading.set(room, (reading.get(room) ?? 0) + 1);
  try {
    return await read();
  } finally {
    const left = (reading.get(room) ?? 1) - 1;
    if (left > 0) reading.set(room, left);
    else reading.delete(room);
  }
}
