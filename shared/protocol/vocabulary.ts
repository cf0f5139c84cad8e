/**
 * The shared vocabulary of the protocol and the rules: disciplines, rulesets, player keys and the constants
 * both sides name. A leaf module: it imports nothing, so any module (pages included) may import it without
 * pulling anything else in, and no import cycle can run through it.
 */

/** The two disciplines: 14-1 continuous (straight pool) and Rotation (61). */
export type Discipline = '14-1' | 'rotation';
/** Every discipline, in the order the pages list them. */
export const DISCIPLINES: readonly Discipline[] = ['14-1', 'rotation'];
/** Rulesets: NBA (both disciplines) and WPA (14-1 only). */
export type Ruleset = 'nba' | 'wpa';
/** Player keys: A is the first player named in the set-up and opens the match (the lag is decided). */
export type PlayerKey = 'A' | 'B';
/** The player keys, A first (index 0 = A). */
export const PLAYER_KEYS: readonly [PlayerKey, PlayerKey] = ['A', 'B'];
/** One value per player, A first. */
export type Pair<T> = [T, T];

/** Rotation: rack points that clinch a rack, more than half of the 120 on the table (ROT §13, R-3a, R-13). */
export const RACK_CLINCH = 61;
