/**
 * The network protocol between browser pages and the server, typed once here and used by the server, the
 * live client (overlay/src/lib/client.ts) and the tests: the Socket.IO envelopes (`subscribe`,
 * `unsubscribe`, `record`), their acks, the `state` push, and the REST record body. Zod-free, so a page
 * may import it (values included) without pulling zod into its bundle; the schemas that check these
 * shapes on the server live beside it in `wire-schemas.ts`.
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
import type { MatchSetup } from './setup';
import type { ConsistencyCheck, MatchState, Outcome, PlayerStats, RackTotal, SheetRow } from './state';
import type { Step } from './steps';

/**
 * Version of this wire protocol. Every `subscribe` and `record` names the version its page was built
 * with; the server answers any other version (older, newer, or none: a page built before versioning)
 * with `protocol-mismatch` ("reload the page") and does nothing else. A newer page is refused too: the
 * server cannot know what a later protocol means (during a rolling upgrade a page built by a newer
 * instance may reach an older one; reloading fetches a page that matches).
 *
 * Bump it when a message, ack or push changes in a way the other side cannot simply ignore: a field
 * added that the receiver must act on, one removed, renamed or given another meaning, a new required
 * field, or a change to the step vocabulary. Version 1 was the unversioned protocol (no `protocol` field).
 */
export const PROTOCOL_VERSION = 2;

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

/** A state snapshot at one version. `version` = number of events in the log. */
export interface Snapshot {
  matchId: string;
  version: number;
  state: MatchState;
  stats: MatchStats;
}

/** Socket.IO `subscribe` request: join the match's room and get its snapshot in the ack. */
export interface SubscribeRequest {
  /** The page's PROTOCOL_VERSION; any other value is refused with `protocol-mismatch`. */
  protocol: typeof PROTOCOL_VERSION;
  /** 1–64 characters. */
  matchId: string;
  /** The version the page already has (a resync); informational, the ack always carries the full snapshot. */
  sinceVersion?: number;
}

/** Socket.IO `unsubscribe` (no ack): leave the match's room. The same in every protocol version. */
export interface UnsubscribeRequest {
  matchId: string;
}

/**
 * Body of REST `POST /api/matches/:id/events`, and the part of the Socket.IO `record` request it shares.
 * `S` is the step's type: `Step` as a client sends it, `unknown` as the envelope check leaves it (the
 * engine's `parseStep` checks the step itself).
 */
export interface RecordBody<S = Step> {
  /** Optional over REST (scripts and Stream Deck buttons need not name one); when given it must be PROTOCOL_VERSION. */
  protocol?: typeof PROTOCOL_VERSION;
  /** Client-chosen idempotency key, 1–100 characters, unique per step of a match. */
  eventId: string;
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

/** Reply to `subscribe`: the snapshot travels in the ack. */
export type SubscribeAck = ({ ok: true; setup: MatchSetup } & Snapshot) | { ok: false; error: ApiError };
/** Reply to `record`. `currentVersion` is set with a `stale` error so the client can resync. */
export type RecordAck =
  | ({ ok: true; duplicate?: boolean } & Snapshot)
  | { ok: false; error: ApiError; currentVersion?: number };

/** Pushed to room `match:<id>` after every recorded step. */
export interface StatePush extends Snapshot {
  step: Step;
}

/** The events a client emits with an acknowledgement: request and ack of each. */
export interface AckedEvents {
  subscribe: { request: SubscribeRequest; ack: SubscribeAck };
  record: { request: RecordRequest; ack: RecordAck };
  subscribeTable: { request: SubscribeTableRequest; ack: SubscribeTableAck };
  subscribeEvent: { request: SubscribeEventRequest; ack: SubscribeEventAck };
}

/**
 * Pushes: `state` to room `match:<id>`; `table` (a table's state: current match, next, cards) to room
 * `table:<eventId>/<table>`; `event` (the whole event after a change) and `eventLive` (a match's live line
 * after each of its steps) to room `event:<eventId>`. See shared/protocol/event.ts.
 */
export interface ServerToClientEvents {
  state: (msg: StatePush) => void;
  table: (msg: TableState) => void;
  event: (msg: EventView) => void;
  eventLive: (msg: EventLivePush) => void;
}
export interface ClientToServerEvents {
  subscribe: (req: SubscribeRequest, ack: (res: SubscribeAck) => void) => void;
  unsubscribe: (req: UnsubscribeRequest) => void;
  record: (req: RecordRequest, ack: (res: RecordAck) => void) => void;
  subscribeTable: (req: SubscribeTableRequest, ack: (res: SubscribeTableAck) => void) => void;
  unsubscribeTable: (req: UnsubscribeTableRequest) => void;
  subscribeEvent: (req: SubscribeEventRequest, ack: (res: SubscribeEventAck) => void) => void;
  unsubscribeEvent: (req: UnsubscribeEventRequest) => void;
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
