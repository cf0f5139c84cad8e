/**
 * Service-level tests: the match and event services wired as every server wires them (`wireServices`,
 * server/services.ts), over the in-memory stores (or any given stores) and a fake clock, without HTTP or sockets.
 * Every push the services send is collected, in order, so a test asserts what viewers would have received.
 */
import { pino } from 'pino';
import { expect } from 'vitest';
import { wireServices, type Stores } from '../../server/services';
import type { Clock } from '../../server/clock';
import type { EventService } from '../../server/events/service';
import type { Pushes } from '../../server/matches/live-cache';
import type { MatchService } from '../../server/matches/service';
import { memoryBackends } from '../../server/backends';
import type { EventLivePush, EventView, TableState } from '../../shared/protocol/event';
import type { Step } from '../../shared/protocol/steps';
import type { ShotClockPush } from '../../shared/protocol/shot-clock';
import type { ShotClockService } from '../../server/shot-clock/service';
import type { DrawPush, DrawService } from '../../server/draws/service';
import type { StepReactions } from '../../server/reactions';
import type { ResultsService } from '../../server/results/service';
import type { WebhookService } from '../../server/webhooks/service';

/** A clock a test moves by hand (starts at 2026-03-13 12:00 UTC). */
export class FakeClock implements Clock {
  constructor(private t = Date.UTC(2026, 2, 13, 12)) {}
  now(): number {
    return this.t;
  }
  /** Move time forward by `ms`. */
  advance(ms: number): void {
    this.t += ms;
  }
}

/** What the services pushed, in order. */
export interface Pushed {
  matches: Pushes[];
  shotClocks: ShotClockPush[];
  tables: TableState[];
  events: EventView[];
  live: EventLivePush[];
  draws: DrawPush[];
}

export interface Services {
  matches: MatchService;
  events: EventService;
  shotClocks: ShotClockService;
  draws: DrawService;
  /** An event's results (results.json, results.csv). */
  results: ResultsService;
  /** The events' webhooks (a test may replace `emit` to collect what would be delivered). */
  webhooks: WebhookService;
  /** The reactions to recorded steps: `await reactions.settled()` once they have run. */
  reactions: StepReactions;
  store: Stores;
  clock: FakeClock;
  pushed: Pushed;
}

/** The two services over `store` (default new in-memory stores, `memoryBackends`) and a new fake clock. */
export function services(store: Stores = memoryBackends().store): Services {
  const clock = new FakeClock();
  const pushed: Pushed = { matches: [], shotClocks: [], tables: [], events: [], live: [], draws: [] };
  const { matches, events, shotClocks, draws, results, webhooks, reactions } = wireServices({
    store,
    clock,
    log: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    pushes: {
      match: (p) => pushed.matches.push(p),
      shotClock: (p) => pushed.shotClocks.push(p),
      table: (t) => pushed.tables.push(t),
      event: (v) => pushed.events.push(v),
      live: (l) => pushed.live.push(l),
      draw: (d) => pushed.draws.push(d),
    },
  });
  return { matches, events, shotClocks, draws, results, webhooks, reactions, store, clock, pushed };
}

let seq = 0;
/** Record `step` for `match` with its scorer token and a new stepId; expects it accepted. Returns the new version. */
export async function recordOk(matches: MatchService, match: { id: string; scorerToken: string }, step: Step): Promise<number> {
  const res = await matches.record(match.id, match.scorerToken, { stepId: `svc-${++seq}`, step });
  expect(res.ok, JSON.stringify(res)).toBe(true);
  return res.ok ? res.version : -1;
}
