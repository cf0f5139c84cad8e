/**
 * The draw of an event (its bracket or groups), typed once for the pure draw module, the server and the pages.
 * A draw is a definition (format, players, seeding, races) plus a list of entries (matches started, results,
 * race changes); its state is rebuilt from them as a match's state is rebuilt from its steps (state.ts).
 */
import type { Pair } from '../protocol/vocabulary';

/** Formats (issue 27 §1). */
export type DrawFormat = 'single' | 'double' | 'round-robin' | 'groups-knockout';

/** A player of the draw: a roster id, with the rating used by `seeding: {by: 'rating'}`. */
export interface DrawPlayer {
  id: string;
  rating?: number;
}

/**
 * How the field is ordered into seeds 1…n: by rating (highest first; equal ratings keep the organiser's
 * order), in the organiser's order as given, or a random draw from a numeric seed (mulberry32; the server picks
 * the seed, shows and stores it, and the same seed gives the same draw).
 */
export type Seeding = { by: 'rating' } | { by: 'order' } | { by: 'random'; seed: number };

/**
 * Races (points in 14-1, points or racks in Rotation, as the event's discipline counts): `default` for every
 * round, a side's (`W` winners' side or single elimination, `L` losers' side, `F` the final and its reset,
 * `G` the groups) over it, and a round's (by round key, `W1`, `L3`, `F`, `G2`…) over that.
 */
export interface DrawRaces {
  default: number;
  sides?: Partial<Record<DrawSide, number>>;
  rounds?: Record<string, number>;
}

/** Which part of the draw a match is in: winners' side (or single elimination), losers' side, final, groups. */
export type DrawSide = 'W' | 'L' | 'F' | 'G';

/** The definition of a draw: what the organiser chose; the structure of matches follows from it (structure.ts). */
export interface DrawDefinition {
  format: DrawFormat;
  /** The field, in the organiser's order (2–256, each once). */
  players: DrawPlayer[];
  seeding: Seeding;
  races: DrawRaces;
  /** Double elimination (alone or as the knockout): the final is a true double (a reset when the losers' side player wins it). */
  trueDouble?: boolean;
  /** Round robin and groups: players per group (2–16); groups are as even as the field allows (sizes differ by at most 1). */
  groupSize?: number;
  /** Groups then knockout: the top `advance` of each group go on. */
  advance?: number;
  /** Groups then knockout: the knockout's format (default single elimination). */
  knockout?: 'single' | 'double';
}

/** How a match was decided: played out, a walkover (the loser did not play), a retirement (the loser gave up during it). */
export type ResultKind = 'win' | 'walkover' | 'retired';

/**
 * A match's result. `score`, `innings` and `highRun` (players in the match's order, A first) feed the round
 * robin standings (difference, high run); a walkover needs none of them.
 */
export interface DrawResult {
  winner: string;
  kind: ResultKind;
  score?: Pair<number>;
  innings?: number;
  highRun?: Pair<number>;
}

/**
 * An entry of a draw's log:
 * - `start`: the match went on a table (`table` its id) and started, scored as the cuecast match `matchId`;
 * - `unstart`: a start is undone (the match is ready again, no result);
 * - `result`: the match's result; on a match that has one already it is a correction, and `reset` names the
 *   matches that depend on it and have started or finished (they go back to waiting; see `applyDrawEntry`);
 * - `race`: the race of round `round` from now on (refused once a match of the round has started).
 */
export type DrawEntry =
  | { t: 'start'; match: string; table?: string; matchId?: string }
  | { t: 'unstart'; match: string }
  | ({ t: 'result'; match: string; reset?: string[] } & DrawResult)
  | { t: 'race'; round: string; race: number };

/** Where a match's slot gets its player from. */
export type SlotSource =
  /** Seed n (1-based) of the seeded field. */
  | { seed: number }
  /** No player: the other slot's player goes through without playing. */
  | { bye: true }
  | { winner: number }
  | { loser: number }
  | { group: number; place: number }
  /** The final reset: the player in slot `slot` of match `match` (the final). */
  | { same: number; slot: 0 | 1 };

/** One match of the structure (fixed by the definition). */
export interface MatchSpec {
  /** Stable id in the draw: `W1-3`, `L2-1`, `HS`, `F`, `FR`, `R1-3`, `GA-2-1`. */
  id: string;
  side: DrawSide;
  /** Round key: `W1`, `L2`, `R3` (single elimination), `F`, `FR`, `G2` (group round 2). */
  round: string;
  /** The round's name: "Winners' round 1", "Semi-finals", "Hot seat", "Losers' final", "Final", "Group round 2". */
  roundName: string;
  /** Place in the bracket, for the intro card and the hall board: "W R1 M3", "L R2 M1", "Hot seat", "Final", "Final reset", "Group A R2 M1". */
  place: string;
  /** When it is played relative to others (earliest first: the ready list's order). */
  depth: number;
  slots: [SlotSource, SlotSource];
  /** Group index (0 = A) of a group match. */
  group?: number;
  /** The final reset: played only when the final's slot-1 (losers' side) player wins the final. */
  reset?: true;
}
