/**
 * Test doubles for the live client's core (web/src/lib/live-*.ts) without a server: a socket port
 * (`FakePort implements LivePort`) whose test drives the connection (`open`, `drop`), answers the acked
 * messages it holds (`answer`, `lose`) and pushes (`push`), and a page document whose visibility the test
 * changes (`FakeDocument`).
 */
import type { DrawPush } from '../../shared/protocol/draw';
import type { EventLivePush, EventView, TableState } from '../../shared/protocol/event';
import type { ShotClockPush } from '../../shared/protocol/shot-clock';
import type { AckedRequests, SheetPage, StatePush } from '../../shared/protocol/wire';
import type { PageDocument } from '../../web/src/lib/live-connection';
import type { AckCallback, AckEmitter, LivePort, PortListeners } from '../../web/src/lib/live-port';

/** An acked message the port sent and the test has not answered yet. */
export interface Asked<E extends keyof AckedRequests = keyof AckedRequests> {
  event: E;
  req: AckedRequests[E]['request'];
  ack: AckCallback<E>;
}

const EVENTS: readonly (keyof AckedRequests)[] = [
  'subscribe',
  'record',
  'subscribeTable',
  'subscribeEvent',
  'subscribeDraw',
  'time',
  'shotClock',
  'shotClockAction',
];
const none = () => ({ subscribe: [], record: [], subscribeTable: [], subscribeEvent: [], subscribeDraw: [], time: [], shotClock: [], shotClockAction: [] });

/** A socket port driven by the test: nothing happens until it says so. */
export class FakePort implements LivePort {
  connected = false;
  active = true;
  /** Acked messages sent, per message name in order, until answered or lost. */
  pending: { [E in keyof AckedRequests]: Asked<E>[] } = none();
  /** Every acked message ever sent, per message name in order. */
  asked: { [E in keyof AckedRequests]: Asked<E>[] } = none();
  /** Messages without an ack (leaving a room), in order. */
  told: { event: string; req: unknown }[] = [];
  private listeners: { [E in keyof PortListeners]: PortListeners[E][] } = {
    connect: [],
    disconnect: [],
    connect_error: [],
    state: [],
    table: [],
    event: [],
    eventLive: [],
    draw: [],
    shotClock: [],
    sheetPage: [],
  };

  on<E extends keyof PortListeners>(event: E, listener: PortListeners[E]): this {
    this.listeners[event].push(listener);
    return this;
  }

  emit(event: 'unsubscribe' | 'unsubscribeTable' | 'unsubscribeEvent' | 'unsubscribeDraw', req: unknown): this {
    this.told.push({ event, req });
    return this;
  }

  timeout(_ms: number): AckEmitter {
    return {
      emit: <E extends keyof AckedRequests>(event: E, req: AckedRequests[E]['request'], ack: AckCallback<E>) => {
        const asked: Asked<E> = { event, req, ack };
        this.pending[event].push(asked);
        this.asked[event].push(asked);
      },
    };
  }

  connect(): void {
    this.open();
  }

  disconnect(): void {
    if (this.connected) this.drop('io client disconnect');
  }

  removeAllListeners(): void {
    for (const list of Object.values(this.listeners)) list.length = 0;
  }

  /** The connection opens: 'connect'. */
  open(): void {
    this.connected = true;
    for (const cb of [...this.listeners.connect]) cb();
  }

  /** The connection drops: acks awaited fail at once, then 'disconnect'. */
  drop(reason = 'transport close'): void {
    this.connected = false;
    for (const e of EVENTS) for (const p of this.pending[e].splice(0)) p.ack(new Error('socket has been disconnected'));
    for (const cb of [...this.listeners.disconnect]) cb(reason);
  }

  /** Take the oldest unanswered message named `event` (throws when there is none). */
  take<E extends keyof AckedRequests>(event: E): Asked<E> {
    const p = this.pending[event].shift();
    if (!p) throw new Error(`no unanswered ${event}`);
    return p;
  }

  /** Answer the oldest unanswered `event` with `res`. */
  answer<E extends keyof AckedRequests>(event: E, res: AckedRequests[E]['ack']): Asked<E> {
    const p = this.take(event);
    p.ack(null, res);
    return p;
  }

  /** The oldest unanswered `event` times out. */
  lose<E extends keyof AckedRequests>(event: E): void {
    this.take(event).ack(new Error('operation has timed out'));
  }

  /** The server pushes a match's state. */
  pushState(msg: StatePush): void {
    for (const cb of [...this.listeners.state]) cb(msg);
  }

  /** The server pushes a table's state. */
  pushTable(msg: TableState): void {
    for (const cb of [...this.listeners.table]) cb(msg);
  }

  /** The server pushes an event. */
  pushEvent(msg: EventView): void {
    for (const cb of [...this.listeners.event]) cb(msg);
  }

  /** The server pushes a live line of an event's match. */
  pushLive(msg: EventLivePush): void {
    for (const cb of [...this.listeners.eventLive]) cb(msg);
  }

  /** The server pushes what changed in an event's draw. */
  pushDraw(msg: DrawPush): void {
    for (const cb of [...this.listeners.draw]) cb(msg);
  }

  /** The server pushes a match's shot clock. */
  pushShotClock(msg: ShotClockPush): void {
    for (const cb of [...this.listeners.shotClock]) cb(msg);
  }

  /** The server sends a page of a paged score sheet. */
  pushSheetPage(msg: SheetPage): void {
    for (const cb of [...this.listeners.sheetPage]) cb(msg);
  }

  /** How many acked messages named `event` were sent. */
  count(event: keyof AckedRequests): number {
    return this.asked[event].length;
  }
}

/** A page document whose visibility the test changes (`hide`, `show`: 'visibilitychange'). */
export class FakeDocument implements PageDocument {
  visibilityState: 'visible' | 'hidden' = 'visible';
  private listeners = new Set<() => void>();
  addEventListener(_type: 'visibilitychange', cb: () => void): void {
    this.listeners.add(cb);
  }
  removeEventListener(_type: 'visibilitychange', cb: () => void): void {
    this.listeners.delete(cb);
  }
  hide(): void {
    this.visibilityState = 'hidden';
    for (const cb of [...this.listeners]) cb();
  }
  show(): void {
    this.visibilityState = 'visible';
    for (const cb of [...this.listeners]) cb();
  }
}
