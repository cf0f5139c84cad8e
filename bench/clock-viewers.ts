/**
 * Benchmark child of `npm run bench:clock`: `BENCH_VIEWERS` viewers of one match's shot clock, each the web
 * pages' own live-client code (web/src/lib/live-connection.ts, live-matches.ts, live-clock.ts: the offset
 * estimate over `time`, the clock subscription, `tickShotClock`'s one timer) over its own Socket.IO connection to
 * one of the instances (alternating). Each viewer's local clock is off the machine's by a random skew of up to
 * ±`BENCH_SKEW_MS` (as a phone's or a venue PC's is), which its estimate must take out. When a viewer's shown
 * second changes by its timer (not by a new clock arriving), it notes the true time (this machine's clock, which
 * the servers share) and the deadline of the view it shows; the orchestrator compares that with the server's
 * moment of the change (deadline − seconds × 1000).
 * IPC: in `{type:'start', urls, matchId}`; out `{type:'ready'}` once every viewer holds the clock, then
 * `{type:'changes', changes}` on `{type:'report'}`.
 */
import { io } from 'socket.io-client';
import type { ShotClockView } from '../shared/shot-clock';
import { clockSubscriptions, tickShotClock, watchShotClock } from '../web/src/lib/live-clock';
import { openConnection } from '../web/src/lib/live-connection';
import { matchSubscriptions } from '../web/src/lib/live-matches';
import type { LivePort } from '../web/src/lib/live-port';

const N = Number(process.env.BENCH_VIEWERS ?? 25);
const SKEW_MS = Number(process.env.BENCH_SKEW_MS ?? 30_000);
const send = (m: unknown) => process.send!(m);
/** This machine's clock in ms (fractional), as the servers' Date.now() reads it. */
const trueNow = () => performance.timeOrigin + performance.now();

/** One change of a viewer's shown second: when (true ms), to which second, for which deadline (server ms). */
export interface Change {
  viewer: number;
  seconds: number;
  at: number;
  deadline: number;
}

const changes: Change[] = [];
const stops: (() => void)[] = [];

function viewer(i: number, url: string, matchId: string, onFirst: () => void): void {
  const skew = (Math.random() * 2 - 1) * SKEW_MS;
  const port = io(url, { transports: ['websocket'], forceNew: true }) as unknown as LivePort;
  const connection = openConnection(port);
  const clocks = clockSubscriptions(connection, () => trueNow() + skew);
  const matches = matchSubscriptions(connection);
  let stopTick = () => {};
  let first = true;
  const stopWatch = watchShotClock(matches, clocks, matchId, (clock: ShotClockView | null) => {
    if (first) {
      first = false;
      onFirst();
    }
    stopTick();
    let shownView: ShotClockView | null = null;
    let shownSeconds = -1;
    stopTick = tickShotClock(clock, clocks.time, (s) => {
      const at = trueNow();
      if (!s) return;
      if (s.view === shownView && s.seconds !== shownSeconds && s.view.deadline !== null) {
        changes.push({ viewer: i, seconds: s.seconds, at, deadline: s.view.deadline });
      }
      shownView = s.view;
      shownSeconds = s.seconds;
    });
  });
  stops.push(() => {
    stopTick();
    stopWatch();
    connection.close();
  });
}

process.on('message', (m: { type: string; urls?: string[]; matchId?: string }) => {
  if (m.type === 'start') {
    let ready = 0;
    for (let i = 0; i < N; i++) {
      viewer(i, m.urls![i % m.urls!.length]!, m.matchId!, () => {
        if (++ready === N) send({ type: 'ready' });
      });
    }
  }
  if (m.type === 'report') send({ type: 'changes', changes: changes.splice(0) });
  if (m.type === 'stop') {
    for (const s of stops) s();
    setTimeout(() => process.exit(0), 100);
  }
});
