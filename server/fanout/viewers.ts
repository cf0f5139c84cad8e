/**
 * The fan-out to viewers: what leaves for the Socket.IO rooms after a change, and the resync of this
 * instance's viewers when pub/sub may have dropped pushes.
 * - `matchPushes` sends a version's two pushes to the match's rooms (`state`: the full room with what changed
 *   in the statistics, the scorebug room without), on every instance through the bus's adapter;
 * - `eventPushes` sends an event's changes (`event`), a table's state (`table`) and live lines (`eventLive`);
 * - `drawPush` sends what changed in an event's draw (`draw`) to the draw's room;
 * - `resyncHooks` is what the bus calls after a reconnection (every room with viewers here) or once a room's
 *   subscription is in place (cluster mode): the rooms' current states are read (the reads sent together) and
 *   pushed to this instance's viewers only, one push per match per viewer (clients drop versions they already
 *   have; one that missed several versions re-subscribes).
 */
import type { Logger } from 'pino';
import type { EventPushes, EventService } from '../events/service';
import type { Pushes } from '../matches/live-cache';
import type { MatchService } from '../matches/service';
import type { ResyncHooks } from './bus';
import type { DrawPush } from '../../shared/protocol/draw';
import { drawOfRoom, drawRoom } from '../../shared/protocol/rooms';
import type { ShotClockPush } from '../../shared/protocol/shot-clock';
import { matchOfRoom, roomOf, type IoServer } from '../transport/socket';
import { eventOfRoom, eventRoom, tableOfRoom, tableRoom } from '../transport/socket-tournaments';

/** A failed resync is tried again this often (ms), this many times. */
const RESYNC_RETRY_MS = 500;
const RESYNC_ATTEMPTS = 20;
/** After a reconnection, the second pass (once the re-subscription and other instances' queued publishes settled). */
const RESYNC_SECOND_PASS_MS = 1000;

/** What a resync reads the current states from. */
export interface ResyncSources {
  matches: Pick<MatchService, 'resync'>;
  events: Pick<EventService, 'resyncTables' | 'resyncEvents'>;
}

/** Pushes to the rooms of `io`, and the resync of this instance's viewers. Call `close()` on shutdown. */
export class ViewerFanout {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly io: IoServer,
    private readonly log: Logger,
  ) {}

  /**
   * Send a version's pushes to the match's two rooms: on every instance, or with `only` (a resync) to this
   * instance's viewers in those of the two rooms `only` names.
   */
  matchPushes({ full, scorebug }: Pushes, only?: ReadonlySet<string>): void {
    for (const [room, push] of [
      [roomOf(full.matchId, 'full'), full],
      [roomOf(full.matchId, 'scorebug'), scorebug],
    ] as const) {
      if (!only) this.io.to(room).emit('state', push);
      else if (only.has(room)) this.io.local.to(room).emit('state', push);
    }
  }

  /** A match's shot clock after a change, to both of the match's rooms on every instance. */
  shotClockPush(push: ShotClockPush): void {
    this.io.to([roomOf(push.matchId, 'full'), roomOf(push.matchId, 'scorebug')]).emit('shotClock', push);
  }

  /** The event service's pushes, to the event's and the tables' rooms on every instance. */
  readonly eventPushes: EventPushes = {
    table: (state) => this.io.to(tableRoom(state.eventId, state.table)).emit('table', state),
    event: (view) => this.io.to(eventRoom(view.id)).emit('event', view),
    live: (push) => this.io.to(eventRoom(push.eventId)).emit('eventLive', push),
  };

  /** What changed in an event's draw, to the draw's room on every instance. */
  drawPush(push: DrawPush): void {
    this.io.to(drawRoom(push.eventId)).emit('draw', push);
  }

  /** Whether match `id` has viewers on this instance (either detail). */
  isViewed(id: string): boolean {
    const rooms = this.io.of('/').adapter.rooms;
    return rooms.has(roomOf(id, 'full')) || rooms.has(roomOf(id, 'scorebug'));
  }

  /** The bus's resync moments, reading from `sources`. */
  resyncHooks(sources: ResyncSources): ResyncHooks {
    const viewedRooms = () => [...this.io.of('/').adapter.rooms.keys()];
    return {
      reconnected: () => {
        this.log.info('resyncing viewers after a redis reconnection');
        // Once right away, once after the re-subscription and the other instances' queued publishes settled
        // (that second pass pushes only the matches that moved on since the first).
        const pushed = new Map<string, number>();
        void this.resync(sources, viewedRooms, 'reconnection', pushed);
        this.later(() => this.resync(sources, viewedRooms, 'reconnection', pushed), RESYNC_SECOND_PASS_MS);
      },
      // A match (either detail), table or event room's first viewer here joined just before its shard channel was subscribed.
      roomSubscribed: (room) => {
        if (this.io.of('/').adapter.rooms.has(room)) void this.resync(sources, () => [room], 'subscribed');
      },
    };
  }

  /** Stop: no resync starts or retries after this. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /**
   * Resync the viewers of `rooms()`. `pushed` holds the version each match was last resynced at by the same
   * round (a later pass pushes a match again only when it moved on).
   */
  private async resync(sources: ResyncSources, rooms: () => string[], why: string, pushed = new Map<string, number>(), attempt = 0): Promise<void> {
    if (this.closed) return;
    try {
      const names = new Set(rooms());
      const ids = new Set<string>();
      for (const room of names) {
        const id = matchOfRoom(room);
        if (id !== null) ids.add(id);
      }
      const all = await sources.matches.resync(ids);
      const fresh = all.filter((p) => (pushed.get(p.full.matchId) ?? -1) < p.full.version);
      for (const p of fresh) {
        this.matchPushes(p, names);
        pushed.set(p.full.matchId, p.full.version);
      }
      const tables = await sources.events.resyncTables([...names].map(tableOfRoom).filter((t) => t !== null));
      for (const t of tables) this.io.local.to(tableRoom(t.eventId, t.table)).emit('table', t);
      const views = await sources.events.resyncEvents([...names].map(eventOfRoom).filter((e) => e !== null));
      for (const v of views) this.io.local.to(eventRoom(v.id)).emit('event', v);
      // Draw rooms: a push that follows no view (`from` −1) makes each page subscribe again for the whole draw.
      for (const eventId of [...names].map(drawOfRoom).filter((e) => e !== null)) {
        const delta = { from: -1, to: -1, matches: [], ready: [], groups: [], standings: [], champion: null };
        this.io.local.to(drawRoom(eventId)).emit('draw', { eventId, version: -1, createdAt: 0, delta });
      }
      this.log.debug({ matches: all.length, pushed: fresh.length, tables: tables.length, events: views.length, why }, 'resynced viewers');
    } catch (err) {
      if (attempt < RESYNC_ATTEMPTS) this.later(() => this.resync(sources, rooms, why, pushed, attempt + 1), RESYNC_RETRY_MS);
      else this.log.error({ err: (err as Error).message, why }, 'resync of viewers failed');
    }
  }

  private later(f: () => unknown, ms: number): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      void f();
    }, ms);
    this.timers.add(t);
  }
}
