/**
 * The typed socket port of the live client: the few members of a Socket.IO client socket that the client uses,
 * each message named with its request and acknowledgement types from the wire protocol. socket.io-client's
 * `Socket<ServerToClientEvents, ClientToServerEvents>` satisfies it as it is (./client.ts assigns one, no cast);
 * a test double (tests/helpers/fake-port.ts) does too, so the live-client core runs without a server.
 * Types only: nothing here reaches a bundle.
 */
import type { AckedRequests, ClientToServerEvents, ServerToClientEvents } from '../../../shared/protocol/wire';

/** How a page reads its connection: connecting (first time), live, or offline (lost; reconnecting by itself). */
export type ConnectionStatus = 'connecting' | 'live' | 'offline';

/** The acknowledgement callback of an acked message sent with a timeout: `err` set (and no `res`) when none came in time. */
export type AckCallback<E extends keyof AckedRequests> = (err: Error | null, res?: AckedRequests[E]['ack']) => void;

/** The messages a page sends with an acknowledgement (`port.timeout(ms).emit(…)`). */
export interface AckEmitter {
  emit(event: 'subscribe', req: AckedRequests['subscribe']['request'], ack: AckCallback<'subscribe'>): unknown;
  emit(event: 'record', req: AckedRequests['record']['request'], ack: AckCallback<'record'>): unknown;
  emit(event: 'subscribeTable', req: AckedRequests['subscribeTable']['request'], ack: AckCallback<'subscribeTable'>): unknown;
  emit(event: 'subscribeEvent', req: AckedRequests['subscribeEvent']['request'], ack: AckCallback<'subscribeEvent'>): unknown;
  emit(event: 'subscribeDraw', req: AckedRequests['subscribeDraw']['request'], ack: AckCallback<'subscribeDraw'>): unknown;
  emit(event: 'time', req: AckedRequests['time']['request'], ack: AckCallback<'time'>): unknown;
  emit(event: 'shotClock', req: AckedRequests['shotClock']['request'], ack: AckCallback<'shotClock'>): unknown;
  emit(event: 'shotClockAction', req: AckedRequests['shotClockAction']['request'], ack: AckCallback<'shotClockAction'>): unknown;
}

/** A refused connection as socket.io-client reports it: the server's error (`ApiError`) in `data`. */
export type ConnectError = Error & { data?: { code?: string } };

/**
 * What the port tells a listener: the connection's own moments (`connect`, `disconnect` with socket.io's
 * reason, `connect_error`) and the server's pushes (`state`, `table`, `event`, `eventLive`, `draw`, `shotClock`).
 */
export interface PortListeners extends ServerToClientEvents {
  connect: () => void;
  disconnect: (reason: string) => void;
  connect_error: (err: ConnectError) => void;
}

/** The Socket.IO connection as the live client uses it. */
export interface LivePort {
  readonly connected: boolean;
  /** True while socket.io reconnects by itself (false after a refusal it does not retry). */
  readonly active: boolean;
  on(event: 'connect', listener: PortListeners['connect']): unknown;
  on(event: 'disconnect', listener: PortListeners['disconnect']): unknown;
  on(event: 'connect_error', listener: PortListeners['connect_error']): unknown;
  on(event: 'state', listener: PortListeners['state']): unknown;
  on(event: 'table', listener: PortListeners['table']): unknown;
  on(event: 'event', listener: PortListeners['event']): unknown;
  on(event: 'eventLive', listener: PortListeners['eventLive']): unknown;
  on(event: 'draw', listener: PortListeners['draw']): unknown;
  on(event: 'shotClock', listener: PortListeners['shotClock']): unknown;
  on(event: 'sheetPage', listener: PortListeners['sheetPage']): unknown;
  /** The messages without an acknowledgement: leaving a match, table, event or draw. */
  emit(event: 'unsubscribe', req: Parameters<ClientToServerEvents['unsubscribe']>[0]): unknown;
  emit(event: 'unsubscribeTable', req: Parameters<ClientToServerEvents['unsubscribeTable']>[0]): unknown;
  emit(event: 'unsubscribeEvent', req: Parameters<ClientToServerEvents['unsubscribeEvent']>[0]): unknown;
  emit(event: 'unsubscribeDraw', req: Parameters<ClientToServerEvents['unsubscribeDraw']>[0]): unknown;
  /** The next message waits `ms` for its acknowledgement, then its callback hears an error. */
  timeout(ms: number): AckEmitter;
  connect(): unknown;
  /** Close the connection (acks still awaited fail at once); `connect()` opens it again. */
  disconnect(): unknown;
  removeAllListeners(): unknown;
}
