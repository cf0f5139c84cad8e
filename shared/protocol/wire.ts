/**
 * The network protocol between browser pages and the server, typed once here and used by the server, the
 * live client (web/src/lib/client.ts) and the tests: the Socket.IO envelopes (`subscribe`,
 * `unsubscribe`, `record`), their acks, the `state` push, and the REST record body. Zod-free, so a page
 * may import it (values included) without pulling zod into its bundle; the schemas that check these
 * shapes on the server are server/protocol/wire-schemas.ts. The messages of each direction as one union:
 * messages.ts; the room names: rooms.ts.
 */
import type { ApiError } from './errors';
import type {
  EventLivePush,
  EventView,
  SubscribeEventAck,
  SubscribeEventRequest,
  SubscribeTableAck,
  SubscribeTableRequest,
  TableState,
  UnsubscribeEventRequest,
  UnsubscribeTableRequest,
} from './event';
import type { DrawPush, SubscribeDrawAck, SubscribeDrawRequest, UnsubscribeDrawRequest } from './draw';
import type { MatchSetup, Pair } from './setup';
import type { ConsistencyCheck, MatchState, Outcome, PlayerStats, RackTotal, SheetRow } from './state';
import type { Step } from './steps';
import type { ShotClockAck, ShotClockActionRequest, ShotClockPush, ShotClockRequest, TimeAck, TimeRequest } from './shot-clock';
import { PROTOCOL_VERSION } from './version';

/**
 * Version of this wire protocol. Every `subscribe` and `record` names the version its page was built
 * with; the server answers any other version (older, newer, or none: a page built before versioning)
 * with `protocol-mismatch` ("reload the page") and does nothing else. A newer page is refused too: the
 * server cannot know what a later protocol means (during a rolling upgrade a page built by a newer
 * instance may reach an older one; reloading fetches a page that matches).
 *
 * Bump it when a message, ack or push changes in a way the other side cannot simply ignore: a field
 * added that the receiver must act on, one removed, renamed or given another meaning, a new required
 * field, or a change to the step vocabulary. Version 1 was the unversioned protocol (no `protocol` field);
 * version 2 pushed the whole statistics with every step; version 3 pushes only what changed (`StatsDelta`)
 * and lets a subscription ask for the scorebug state alone (`detail`); version 4 names a step's idempotency
 * key `stepId` (it was `eventId`: "event" is the tournament) and refuses a reused one with `step-id-reused`.
 * Pages of protocol 3 are refused like any other version (`protocol-mismatch`, "reload the page"): page
 * and server ship together. A record request may still say `eventId` for one version (`RecordBody`).
 *
 * Within version 4, the score sheet of a long match may come in pages (`SubscribeRequest.pages`): a page that
 * asks for them gets the newest SHEET_PAGE_ROWS rows in the ack and the older ones as `sheetPage` messages; a
 * page that does not ask (built before paging) gets the whole sheet in the ack as before, so no bump. (During a
 * rolling upgrade a paging page that reaches an instance from before paging is refused `invalid-request` naming
 * `pages`, as any newer page may be: reloading fetches a page that matches.)
 *
 * Within version 4 too, the draw page's messages were added (`subscribeDraw`, `unsubscribeDraw`, the `draw`
 * push: ./draw.ts): no page of an earlier build sends or hears them, so no bump; `subscribeDraw` names the
 * version like every subscribe.
 */
export { PROTOCOL_VERSION };

/**
 * Most score-sheet rows one message carries when the sheet comes in pages: the subscribe ack carries the newest
 * rows, each `sheetPage` as many older ones (about 50 KB).
 */
export const SHEET_PAGE_ROWS = 500;

/**
 * How much of a match a subscription receives: `full` (default) the state and the statistics with score
 * sheet (dashboard, spectators, scorer); `scorebug` the state only (the OBS overlay, match lists).
 */
export type Detail = 'scorebug' | 'full';

/** The subscription details, in the order of `Detail`. */
export const DETAILS: readonly Detail[] = ['scorebug', 'full'];

/** Derived statistics sent alongside the state to the dashboard and spectator pages. */
export interface MatchStats {
  players: [PlayerStats, PlayerStats];
  sheet: SheetRow[];
  /** Points (and, for Rotation, ball numbers) each player scored in each rack, racks in order; racks with no points are left out. */
  racks: RackTotal[];
  /** Outcomes of the last few effective steps (at most 8), newest last; the pages word them (names: `state.names`). */
  recent: Outcome[];
  /** Consistency check: 14-1 INV-1 / INV-2, Rotation INV-R1, as numbers (the dashboard words them). */
  check: ConsistencyCheck;
}

/** Per-player statistics without the runs list (a page rebuilds it from the sheet: `runsOf`). */
export type PlayerTotals = Omit<PlayerStats, 'runs'>;

/** How a list changed: keep its first `from` elements, then put `rows` after them (rows cut off by an undo are gone). */
export interface TailPatch<T> {
  from: number;
  rows: T[];
}

/**
 * How a short sliding list changed (the recent outcomes): `before`, then the old list's elements `from` …
 * `to − 1`, then `after`. A step appends one (`{before: [], from: 1, to: 8, after: [new]}` once the list is
 * full); an undo takes the last one off and an older one comes back in front.
 */
export interface WindowPatch<T> {
  before: T[];
  from: number;
  to: number;
  after: T[];
}

/**
 * What changed in the statistics from version `since` to the version of the message carrying it: the player
 * totals, the new or changed score-sheet rows and rack totals, the recent outcomes new to the list, and the
 * check. A page applies it only to the statistics it holds at exactly `since` (`applyStatsDelta`); otherwise
 * it re-subscribes for the whole statistics.
 */
export interface StatsDelta {
  since: number;
  players: [PlayerTotals, PlayerTotals];
  sheet: TailPatch<SheetRow>;
  racks: TailPatch<RackTotal>;
  recent: WindowPatch<Outcome>;
  check: MatchStats['check'];
}

/**
 * The few figures a scorebug shows that the state does not hold (they come from the statistics, which the
 * `scorebug` detail does not carry): computed by the server (shared/stats.ts `scorebugFigures`), the same
 * numbers the dashboard's statistics and the summary card show.
 */
export interface ScorebugFigures {
  /** Points per inning, A first: `PlayerStats.average` (points since the start ÷ innings, 2 decimals; 0 with no inning). */
  average: Pair<number>;
  /** A Rotation race: racks each player won (shared/cards.ts `racksWon`: reached 61 in the rack); null for 14-1 and a single rack to 61. */
  racksWon: Pair<number> | null;
}

/** The state of a match at one version. `version` = number of steps in the log. */
export interface ScorebugSnapshot {
  matchId: string;
  version: number;
  state: MatchState;
  /**
   * The statistics' figures a scorebug shows (average, racks won) at `version`: in the `scorebug` subscribe ack,
   * in every `state` push and in the ack of a newly recorded step; absent elsewhere (a page with the whole
   * statistics has them there). A page that ignores it loses nothing else (no protocol version bump).
   */
  figures?: ScorebugFigures;
}

/** A state snapshot at one version with the whole statistics. */
export interface Snapshot extends ScorebugSnapshot {
  stats: MatchStats;
}

/** Socket.IO `subscribe` request: join the match's room for `detail` and get its snapshot in the ack. */
export interface SubscribeRequest {
  /** The page's PROTOCOL_VERSION; any other value is refused with `protocol-mismatch`. */
  protocol: typeof PROTOCOL_VERSION;
  /** 1–64 characters. */
  matchId: string;
  /** The version the page already has (a resync); informational, the ack always carries the full snapshot. */
  sinceVersion?: number;
  /** Default `full`. Subscribing again with another detail moves the connection to that detail's room. */
  detail?: Detail;
  /**
   * True: this page takes a long score sheet in pages (detail `full`): when the sheet has more than
   * SHEET_PAGE_ROWS rows the ack carries only the newest ones and `sheetFrom`, and rows 0 … sheetFrom − 1 follow
   * as `sheetPage` messages of the ack's version, sent while the connection reads them. Absent: the whole sheet
   * in the ack.
   */
  pages?: true;
}

/**
 * Rows `from` … `from + rows.length − 1` of the score sheet of match `matchId` at `version`: a page of a paged
 * subscribe answer (`SubscribeAck.sheetFrom`), sent to that connection only, oldest page first.
 */
export interface SheetPage {
  matchId: string;
  version: number;
  from: number;
  rows: SheetRow[];
}

/** Socket.IO `unsubscribe` (no ack): leave the match's room. The same in every protocol version. */
export interface UnsubscribeRequest {
  matchId: string;
}

/**
 * Body of REST `POST /api/matches/:id/steps`, and the part of the Socket.IO `record` request it shares.
 * `S` is the step's type: `Step` as a client sends it, `unknown` as the envelope check leaves it (the
 * server's `parseStep` checks the step itself, before the engine sees it).
 */
export interface RecordBody<S = Step> {
  /** Optional over REST (scripts and Stream Deck buttons need not name one); when given it must be PROTOCOL_VERSION. */
  protocol?: typeof PROTOCOL_VERSION;
  /**
   * Client-chosen idempotency key, 1–100 characters without control or text-direction characters
   * (UNSAFE_TEXT), unique per step of a match. Deprecated alias for one protocol version: `eventId` (the
   * server takes it when `stepId` is absent; both given and different is `invalid-request` on `eventId`).
   */
  stepId: string;
  /** Record only if the match is at this version (else `stale` with `currentVersion`). */
  expectedVersion?: number;
  step: S;
}

/** Socket.IO `record` request: the record body plus the match and the (required) protocol version. */
export interface RecordRequest<S = Step> extends RecordBody<S> {
  protocol: typeof PROTOCOL_VERSION;
  /** 1–64 characters. */
  matchId: string;
}

/** Reply to `subscribe`: the snapshot travels in the ack, with the whole statistics for `detail: 'full'`. */
export type SubscribeAck =
  /**
   * `sheetFrom` (a paged answer, `SubscribeRequest.pages`): `stats.sheet` holds only rows `sheetFrom` … of the
   * whole sheet; rows 0 … sheetFrom − 1 follow as `sheetPage` messages.
   */
  | ({ ok: true; setup: MatchSetup; detail: 'full'; sheetFrom?: number } & Snapshot)
  | ({ ok: true; setup: MatchSetup; detail: 'scorebug' } & ScorebugSnapshot)
  /** The connection is in the room already and `sinceVersion` is the latest version: nothing to send again. */
  | { ok: true; detail: Detail; matchId: string; version: number; unchanged: true }
  | { ok: false; error: ApiError };
/**
 * Reply to `record`: the state after the step and, for a newly recorded step, what changed in the statistics
 * (`stats`, since the version before). A retried stepId (`duplicate`) answers the state at the version it
 * was recorded at, without `stats`. `currentVersion` is set with a `stale` error so the client can resync.
 */
export type RecordAck = ({ ok: true; duplicate?: boolean; stats?: StatsDelta } & ScorebugSnapshot) | { ok: false; error: ApiError; currentVersion?: number };

/**
 * Pushed after every recorded step: to room `match:<id>` (detail `full`) with `stats`, what changed since
 * `version − 1`; to room `scorebug:<id>` (detail `scorebug`) without it.
 */
export interface StatePush extends ScorebugSnapshot {
  step: Step;
  stats?: StatsDelta;
}

/** The requests a client emits with an acknowledgement (Socket.IO event names): request and ack of each. */
export interface AckedRequests {
  subscribe: { request: SubscribeRequest; ack: SubscribeAck };
  record: { request: RecordRequest; ack: RecordAck };
  subscribeTable: { request: SubscribeTableRequest; ack: SubscribeTableAck };
  subscribeEvent: { request: SubscribeEventRequest; ack: SubscribeEventAck };
  subscribeDraw: { request: SubscribeDrawRequest; ack: SubscribeDrawAck };
  time: { request: TimeRequest; ack: TimeAck };
  shotClock: { request: ShotClockRequest; ack: ShotClockAck };
  shotClockAction: { request: ShotClockActionRequest; ack: ShotClockAck };
}

/**
 * Pushes: `state` to rooms `match:<id>` (with the statistics delta) and `scorebug:<id>` (without); `table` (a table's state: current match, next, cards) to room
 * `table:<eventId>/<table>`; `event` (the whole event after a change) and `eventLive` (a match's live line
 * after each of its steps) to room `event:<eventId>`. See shared/protocol/event.ts. `draw` (what changed in an
 * event's draw) to room `draw:<eventId>`: shared/protocol/draw.ts.
 */
export interface ServerToClientEvents {
  state: (msg: StatePush) => void;
  table: (msg: TableState) => void;
  event: (msg: EventView) => void;
  eventLive: (msg: EventLivePush) => void;
  draw: (msg: DrawPush) => void;
  shotClock: (msg: ShotClockPush) => void;
  /** A page of a paged subscribe answer (to the subscribing connection only). */
  sheetPage: (msg: SheetPage) => void;
}
export interface ClientToServerEvents {
  subscribe: (req: SubscribeRequest, ack: (res: SubscribeAck) => void) => void;
  unsubscribe: (req: UnsubscribeRequest) => void;
  record: (req: RecordRequest, ack: (res: RecordAck) => void) => void;
  subscribeTable: (req: SubscribeTableRequest, ack: (res: SubscribeTableAck) => void) => void;
  unsubscribeTable: (req: UnsubscribeTableRequest) => void;
  subscribeEvent: (req: SubscribeEventRequest, ack: (res: SubscribeEventAck) => void) => void;
  unsubscribeEvent: (req: UnsubscribeEventRequest) => void;
  subscribeDraw: (req: SubscribeDrawRequest, ack: (res: SubscribeDrawAck) => void) => void;
  unsubscribeDraw: (req: UnsubscribeDrawRequest) => void;
  time: (req: TimeRequest, ack: (res: TimeAck) => void) => void;
  shotClock: (req: ShotClockRequest, ack: (res: ShotClockAck) => void) => void;
  shotClockAction: (req: ShotClockActionRequest, ack: (res: ShotClockAck) => void) => void;
}

/** Summary row of `GET /api/matches`. */
export interface MatchSummary {
  id: string;
  discipline: MatchSetup['discipline'];
  names: [string, string];
  score: [number, number];
  targets: [number, number];
  winner: 'A' | 'B' | null;
  version: number;
  updatedAt: number;
}
