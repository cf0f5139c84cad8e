/**
 * The shot clock in the live client (issue 18; the model is shared/shot-clock.ts, the wire
 * shared/protocol/shot-clock.ts): the server's time as this page estimates it, each watched match's clock, the
 * scorer's clock actions, and the one timer a display runs.
 * - Server time: on every (re)connect the page sends `time` requests one after another ({@link TIME_SAMPLES}) and
 *   keeps the sample with the shortest round trip (`offsetFromSamples`: its error is at most half that round
 *   trip). It samples again when a clock starts running and the estimate is older than {@link REFRESH_MS}; no
 *   timer refreshes it, so an idle page runs none. Until the first sample, each clock answer's `now` stands in.
 * - Clocks: one versioned subscription per match (./live-subscriptions.ts; the version is the stored clock's
 *   `revision`), answered by `shotClock` and moved on by the `shotClock` pushes to the match's rooms; watching a
 *   clock also watches the match's state (so the page is in the room the pushes go to).
 * - Display: {@link tickShotClock} calls back with what to show now and sets one timer to the next change of the
 *   shown second (`msToNextSecond`) or of the match clock's minute; none while the clock is idle, paused or expired.
 */
import type { ApiError } from '../../../shared/protocol/errors';
import type { ShotClockAck, ShotClockPush } from '../../../shared/protocol/shot-clock';
import {
  matchClockMs,
  msToNextSecond,
  offsetFromSamples,
  onAir,
  shownSeconds,
  warningLevel,
  type ShotClockAction,
  type ShotClockStatus,
  type ShotClockView,
  type TimeSample,
} from '../../../shared/shot-clock';
import type { Connection } from './live-connection';
import { watchScorebug, type MatchSubscriptions } from './live-matches';
import { SUBSCRIBE_TIMEOUT_MS, subscriptions, type Subscriptions } from './live-subscriptions';

/** `time` requests per sampling (sent one after another). */
export const TIME_SAMPLES = 5;
/** A running clock samples the server's time again when the estimate is older than this (ms). */
export const REFRESH_MS = 60_000;
/** How long one `time` request waits for its answer (ms). */
const TIME_TIMEOUT_MS = 2000;

/** The page's estimate of the server's clock. */
export interface ServerTime {
  /** Server time now (ms since the Unix epoch), as estimated: the local clock plus the offset. */
  now(): number;
  /** Half the round trip of the best sample (the estimate's worst error, ms); null before any sample. */
  readonly errorMs: number | null;
  /** Hear every change of the estimate (a display re-arms its timer). Returns the function that stops. */
  onChange(cb: () => void): () => void;
}

/** A clock as a match's clock subscription holds it: the push or answer, versioned by the stored revision. */
export interface HeldClock {
  version: number;
  matchId: string;
  clock: ShotClockView | null;
}

/** The shot clocks of one connection: the server-time estimate and the clock subscriptions. */
export interface ClockSubscriptions {
  readonly time: ServerTime & { sampleIfStale(): void };
  readonly subs: Subscriptions<HeldClock, HeldClock>;
}

/** Monotonic local time in ms since the Unix epoch (not moved by the system clock being set). */
const monotonic = (): number => performance.timeOrigin + performance.now();

/**
 * The server-time estimate and clock subscriptions over `connection`. `localNow` is the local clock (a test
 * passes its own).
 */
export function clockSubscriptions(connection: Connection, localNow: () => number = monotonic): ClockSubscriptions {
  const port = connection.port;
  let samples: TimeSample[] = [];
  let best: { offset: number; roundTrip: number } | null = null;
  /** Before any sample: server `now` of the last answer minus the local time it came (latency taken as 0). */
  let rough: number | null = null;
  let sampledAt = -Infinity;
  let sampling = false;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const cb of [...listeners]) cb();
  };

  const sample = () => {
    if (sampling || !port.connected) return;
    sampling = true;
    const round = (left: number) => {
      if (left === 0 || !port.connected) {
        sampling = false;
        return;
      }
      const sent = localNow();
      port.timeout(TIME_TIMEOUT_MS).emit('time', {}, (err, ack) => {
        const received = localNow();
        if (!err && ack?.ok) {
          samples = [...samples, { sent, received, server: ack.now }].slice(-TIME_SAMPLES * 2);
          const next = offsetFromSamples(samples);
          sampledAt = received;
          if (next && (best === null || next.offset !== best.offset)) {
            best = next;
            changed();
          }
        }
        round(left - 1);
      });
    };
    round(TIME_SAMPLES);
  };

  const time = {
    now: () => localNow() + (best?.offset ?? rough ?? 0),
    get errorMs() {
      return best ? best.roundTrip / 2 : null;
    },
    onChange(cb: () => void) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    sampleIfStale() {
      if (localNow() - sampledAt > REFRESH_MS) sample();
    },
  };

  const hold = (msg: ShotClockPush): HeldClock => {
    if (best === null) {
      const first = rough === null;
      rough = msg.now - localNow();
      if (first) changed();
    }
    if (msg.clock?.status === 'running') time.sampleIfStale();
    return { version: msg.revision, matchId: msg.matchId, clock: msg.clock };
  };

  const subs = subscriptions<HeldClock, HeldClock>(connection, {
    ask(matchId, _held, done) {
      port.timeout(SUBSCRIBE_TIMEOUT_MS).emit('shotClock', { matchId }, (err, ack) => {
        if (err || !ack) return done(null);
        if (!ack.ok) return done(null, ack.error);
        done(hold(ack));
      });
    },
    // The match's state subscription holds the room; nothing to leave here.
    leave() {},
    follow: (_matchId, _held, push) => push,
  });
  port.on('shotClock', (msg) => subs.push(msg.matchId, hold(msg)));
  // A new connection may reach another instance, on another machine: measure again.
  connection.onResync((connectionLost) => {
    if (!connectionLost) return;
    samples = [];
    sampledAt = -Infinity;
    sample();
  });
  return { time, subs };
}

/**
 * Watch match `matchId`'s shot clock: `onClock` hears the clock (null: the match has none) at every change, in
 * revision order. Watches the match's state too (detail `scorebug` unless watched `full`), whose room carries the
 * clock's pushes. `onError` hears a refusal (`not-found`, …). Returns the function that stops both.
 */
export function watchShotClock(
  matches: MatchSubscriptions,
  clocks: ClockSubscriptions,
  matchId: string,
  onClock: (clock: ShotClockView | null) => void,
  onError?: (e: ApiError) => void,
): () => void {
  const stopMatch = watchScorebug(matches, matchId, () => {}, onError);
  const stopClock = clocks.subs.watch(
    matchId,
    (v) => v,
    (v) => onClock(v.clock),
    onError,
  );
  return () => {
    stopClock();
    stopMatch();
  };
}

/**
 * Press `action` on match `matchId`'s clock over the connection (its handshake carries the scorer token);
 * `period`: the clock period (`ShotClockView.shot`) the press is meant for, so a late repeat changes nothing.
 * Resolves with the server's answer (the new clock also goes to the match's clock watchers at once); rejects
 * with Error('offline') when not connected and Error('timeout') when no answer comes.
 */
export function pressClock(
  connection: Connection,
  clocks: ClockSubscriptions,
  matchId: string,
  action: ShotClockAction,
  period: number | undefined,
  timeoutMs = 5000,
): Promise<ShotClockAck> {
  return new Promise((resolve, reject) => {
    const port = connection.port;
    if (!port.connected) {
      reject(new Error('offline'));
      return;
    }
    port.timeout(timeoutMs).emit('shotClockAction', { matchId, action, ...(period === undefined ? {} : { period }) }, (err, ack) => {
      if (err || !ack) {
        reject(new Error(port.connected ? 'timeout' : 'offline'));
        return;
      }
      if (ack.ok) clocks.subs.push(matchId, { version: ack.revision, matchId, clock: ack.clock });
      resolve(ack);
    });
  });
}

/** What a display shows of a clock at one moment. */
export interface ShownClock {
  view: ShotClockView;
  /**
   * The status to show: the view's, except that a running clock showing 0 has run out (the server settles a
   * clock that ran out lazily, at its next read or action, and pushes nothing at the deadline: every display
   * reaches 0 at the same moment by itself).
   */
  status: ShotClockStatus;
  /** Whole seconds shown (29.001 s left shows 30). */
  seconds: number;
  level: 'none' | 'warning' | 'urgent';
  /** The shot clock belongs on air now (the settings' "shown from N seconds"; never while idle). */
  onAir: boolean;
  /** The match clock (ms played; ms left of a time limit, else null), or null when the match has none. */
  match: { playedMs: number; leftMs: number | null } | null;
}

/** What `view` shows at server time `now`. */
export function showClock(view: ShotClockView, now: number): ShownClock {
  const seconds = shownSeconds(view, now);
  const status = view.status === 'running' && seconds === 0 ? 'expired' : view.status;
  return { view, status, seconds, level: warningLevel(view, seconds), onAir: onAir(view, seconds), match: matchClockMs(view, now) };
}

/**
 * One marker per extension a player has in the period (`per`), in order: true for each still left (`left` of
 * them, first), false for each used. `left` is held within 0…per. (Here, beside `showClock`, and not in
 * ./clock-face.ts, because the OBS overlay draws markers too and must not load the pages' string tables.)
 */
export function extensionMarks(left: number, per: number): boolean[] {
  const n = Math.max(0, Math.floor(per));
  const l = Math.min(n, Math.max(0, Math.floor(left)));
  return Array.from({ length: n }, (_, i) => i < l);
}

/** ms from server time `now` until the shown minute of the match clock changes; null while it stands still. */
function msToNextMinute(view: ShotClockView, now: number): number | null {
  const m = view.match;
  if (!m || m.since === null) return null;
  const played = m.playedMs + Math.max(0, now - m.since);
  // Time left counts down: its shown minute changes as `limit − played` crosses a whole minute, as played does.
  const r = m.limitMs === null ? 60_000 - (played % 60_000) : (m.limitMs - played) % 60_000 || 60_000;
  return m.limitMs !== null && played >= m.limitMs ? null : r;
}

/**
 * Show `view` now through `show` (null: nothing to show, the match has no clock) and again at each change of the
 * shown second or of the match clock's minute, with one timer set exactly to the next change; none while nothing
 * moves. Re-arms when `time`'s estimate changes. Returns the function that stops (the page calls it on every new
 * view).
 */
export function tickShotClock(view: ShotClockView | null, time: Pick<ServerTime, 'now' | 'onChange'>, show: (s: ShownClock | null) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const draw = () => {
    timer = undefined;
    if (!view) return show(null);
    const now = time.now();
    show(showClock(view, now));
    const waits = [msToNextSecond(view, now), msToNextMinute(view, now)].filter((w): w is number => w !== null);
    if (waits.length) timer = setTimeout(draw, Math.min(...waits));
  };
  draw();
  const stopListening = time.onChange(() => {
    clearTimeout(timer);
    draw();
  });
  return () => {
    clearTimeout(timer);
    stopListening();
  };
}
