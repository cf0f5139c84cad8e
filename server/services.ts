/**
 * The services over the stores, as every server wires them (and as service-level tests run them, without
 * sockets): the match service, the shot clocks over it, the tournaments over both, and the domain's reactions to
 * each recorded step between them (server/reactions.ts). Where pushes go is the caller's: the fan-out to the
 * Socket.IO rooms in a server (server/app.ts), a list in a test.
 */
import type { Logger } from 'pino';
import type { ShotClockPush } from '../shared/protocol/shot-clock';
import type { Clock } from './clock';
import { DrawService, type DrawPush } from './draws/service';
import { EventService, type EventPushes } from './events/service';
import type { Pushes } from './matches/live-cache';
import { MatchService } from './matches/service';
import { StepReactions } from './reactions';
import { ShotClockService } from './shot-clock/service';
import type { StoragePorts } from './storage/ports';
import type { StoreHealth } from './storage/store-errors';
import { ResultsService } from './results/service';
import { WebhookHappenings } from './webhooks/happenings';
import { WebhookService, type WebhookServiceOptions } from './webhooks/service';

/**
 * The storage of a server: every port of one backend (server/storage/ports.ts: matches, events, shot clocks,
 * sponsors' logos), and what hears their damage and refusals.
 */
export interface Stores extends StoragePorts {
  /**
   * Hears damage the stores found and writes they refused (the log, `/healthz`); the SQLite store reports to
   * it too. Default a new one (refusals the match service sees, e.g. Redis out of memory).
   */
  health?: StoreHealth;
}

/** Where the services' pushes go: a match's new version, and the event service's (see `EventPushes`). */
export interface ServicePushes extends EventPushes {
  match(pushes: Pushes): void;
  /** A match's shot clock changed (to the match's rooms). */
  shotClock(push: ShotClockPush): void;
  /** A draw changed (its delta, to the draw's room: the draw page and the OBS draw graphics). */
  draw?(push: DrawPush): void;
}

/** Retry and timeout settings of the webhooks' deliveries (server/webhooks/service.ts; every field has a default). */
export type WebhookSettings = Pick<WebhookServiceOptions, 'retryBaseMs' | 'retryMaxMs' | 'maxAttempts' | 'timeoutMs' | 'queueMax'>;

/** The wired services. */
export interface WiredServices {
  matches: MatchService;
  events: EventService;
  shotClocks: ShotClockService;
  /** The draws of the tournaments (results flow in, autopilot fills freed tables). */
  draws: DrawService;
  /** An event's results (results page, results.csv / results.json). */
  results: ResultsService;
  /** The events' webhooks (deliveries queued off the record path; `close()` on shutdown). */
  webhooks: WebhookService;
  /** The reactions to recorded steps (`settled()`: every reaction started so far has finished). */
  reactions: StepReactions;
}

/**
 * The match, shot clock and event services over `store`: each newly recorded step is pushed (`pushes.match`)
 * and then reacted to (the tournaments and the shot clock hear it: `StepReactions`).
 */
export function wireServices(parts: {
  store: Stores;
  clock: Clock;
  log: Logger;
  pushes: ServicePushes;
  health?: StoreHealth;
  /** Retry and timeout settings of the webhooks' deliveries (tests shorten them). */
  webhooks?: WebhookSettings;
}): WiredServices {
  const { store, clock, log, pushes } = parts;
  const reactions = new StepReactions();
  const matches: MatchService = new MatchService({
    store: store.matches,
    log,
    clock,
    health: parts.health ?? store.health,
    shared: store.matches.kind === 'redis',
    // A table's scorer token records for the table's current match (issue 27 §4).
    otherScorers: (matchId: string, token: unknown) => events!.tableScorerCheck(matchId, token),
    // A match the organiser decided in the draw (closed by its event) takes no more steps (issue 27 §3).
    closed: (matchId: string) => events!.closedCheck(matchId),
    onAppended: (p) => {
      pushes.match(p);
      // The reactions need the state only (a match summary reads the service's whole current statistics, never a delta).
      reactions.stepRecorded(p.scorebug);
    },
  });
  // Built before the events, which tell them of each start; their token check asks the events once they exist.
  let events: EventService | null = null;
  const webhooks = new WebhookService({
    store: store.webhooks,
    log,
    clock,
    tokenValid: (id, token) => events!.tokenValid(id, token),
    ...parts.webhooks,
  });
  const shotClocks = new ShotClockService({ store: store.shotClocks, matches, clock, log, push: (p) => pushes.shotClock(p) });
  let happenings: WebhookHappenings | null = null;
  events = new EventService({
    store: store.tournaments,
    sponsors: store.sponsors,
    matches,
    log,
    clock,
    shared: store.tournaments.kind === 'redis',
    pushes: { ...pushes, matchStarted: (s) => (pushes.matchStarted?.(s), happenings?.matchStarted(s)) },
    shotClocks,
    // A player of the draw stays on the roster (issue 27 §7): the stored definition's field, no view built.
    drawPlayers: async (id) => (await store.draws.load(id))?.definition.players.map((p) => p.id) ?? [],
  });
  happenings = new WebhookHappenings(webhooks, events, log);
  const draws = new DrawService({
    store: store.draws,
    events,
    matches,
    log,
    clock,
    pushes: {
      draw: (p) => {
        pushes.draw?.(p);
        happenings?.drawChanged(p);
      },
      decided: (d) => happenings?.matchDecided(d),
    },
  });
  const results = new ResultsService({ events, matches, draw: (id) => draws.get(id) });
  reactions.attach({ tournaments: events, shotClocks, draws, webhooks: happenings });
  return { matches, events, shotClocks, draws, results, webhooks, reactions };
}
