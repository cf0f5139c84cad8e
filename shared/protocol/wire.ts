/**
 * The network protocol between browser pages and the server: one discriminated set of Socket.IO events
 * and REST bodies, typed once here and used by both sides.
 */
import { z } from 'zod';
import type { ApiError } from './errors';
import type { MatchSetup } from './setup';
import type { ConsistencyCheck, MatchState, Outcome, PlayerStats, RackTotal, SheetRow } from './state';
import type { Step } from './steps';

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

/** Socket.IO `subscribe` request. */
export const subscribeSchema = z.strictObject({
  matchId: z.string().min(1).max(64),
  sinceVersion: z.number().int().min(0).optional(),
});
export type SubscribeRequest = z.infer<typeof subscribeSchema>;

/** Socket.IO `record` request (and REST `POST /api/matches/:id/events` body, without matchId). */
export const recordSchema = z.strictObject({
  matchId: z.string().min(1).max(64),
  eventId: z.string().min(1).max(100),
  expectedVersion: z.number().int().min(0).optional(),
  step: z.unknown(),
});
export type RecordRequest = { matchId: string; eventId: string; expectedVersion?: number; step: Step };

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

export interface ServerToClientEvents {
  state: (msg: StatePush) => void;
}
export interface ClientToServerEvents {
  subscribe: (req: SubscribeRequest, ack: (res: SubscribeAck) => void) => void;
  unsubscribe: (req: { matchId: string }) => void;
  record: (req: RecordRequest, ack: (res: RecordAck) => void) => void;
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
