/**
 * An event's results (issue 27 §6), typed once for the server, the results page and the tests: what
 * `GET /api/events/<id>/results.json` answers and `results.csv` lays out one row per match. Live during the
 * event (a match in play has its score so far) and kept after it (built from the stored event, its draw and its
 * matches' logs).
 */
import type { ResultKind } from '../draw/types';
import type { Pair } from './vocabulary';

/** Where a match of the results is: in play on its table, decided, or taken off its table unfinished. */
export type ResultStatus = 'playing' | 'done' | 'unfinished';

/**
 * One match of the event: a match played on one of its tables (with its sheet) or a draw match decided without
 * one (a walkover, a result the organiser typed in). Players, `score`, `innings`, `highRun` and `average`
 * (points per inning) are A first; times are ms since the epoch.
 */
export interface ResultRow {
  /** The cuecast match (its sheet: `/dashboard/<matchId>`, `/api/matches/<matchId>/sheet.csv`), null when none was played. */
  matchId: string | null;
  /** The draw's match id (`W1-3`, `L2-1`, `F`…), null for a match outside the draw. */
  drawMatch: string | null;
  /** The round's name ("Winners' round 1", "Final"), null outside the draw. */
  round: string | null;
  /** The place in the bracket ("W R1 M3", "Hot seat"), null outside the draw. */
  place: string | null;
  players: Pair<string>;
  score: Pair<number> | null;
  innings: Pair<number> | null;
  highRun: Pair<number> | null;
  average: Pair<number> | null;
  /** The winner's name, null while undecided. */
  winner: string | null;
  /** How it was decided (a won match off a table is `win`), null while undecided. */
  kind: ResultKind | null;
  status: ResultStatus;
  /** The table's name, null when it was not played on a table. */
  table: string | null;
  startedAt: number | null;
  /** When the winning shot was recorded; null while undecided and for a result entered without a match (a walkover). */
  endedAt: number | null;
}

/** A line of the event's standings (the draw's when there is one, else by matches won). */
export interface ResultStanding {
  /** 1-based; players out at the same stage share it; null while still in. */
  place: number | null;
  player: string;
  wins: number;
  losses: number;
  out: boolean;
}

/** A best figure of the event: who, how much, in which match. */
export interface ResultBest {
  player: string;
  value: number;
  matchId: string;
}

/** `GET /api/events/<id>/results.json`. */
export interface EventResults {
  eventId: string;
  name: string;
  date: string;
  /** The draw's format, null when the event has no draw. */
  format: string | null;
  /** The champion's name once the draw is decided. */
  champion: string | null;
  /** True once the draw is decided. */
  finished: boolean;
  standings: ResultStanding[];
  /** The matches played on the tables, oldest start first, then the draw matches decided without one. */
  matches: ResultRow[];
  /** The event's high run (the longest run in any match), null before any point. */
  highRun: ResultBest | null;
  /** The best average of a player in one decided match (points per inning), null before any. */
  bestAverage: ResultBest | null;
}
