/**
 * Consecutive fouls and 14-1 foul penalties (S-13–S-15; 14-1 §08–§09; R-9): whether a player stands "on two
 * fouls", whether a standard foul is the third consecutive one and what it costs. Pure and small (it imports
 * types only), so the engine, the public state and the pages' words (web/src/lib/format.ts, the commentator's
 * what-if line web/src/lib/format-whatif.ts) decide the same.
 */
import type { StraightPoolOptions } from '../protocol/setup';

/**
 * D-6 (S-15, R-9): a player with `standing` consecutive fouls is "on two fouls" — the next counted foul can be
 * the third — which every screen shows (the public state's `onTwoFouls`, the caption after the second foul).
 */
export function isOnTwoFouls(standing: number): boolean {
  return standing === 2;
}

/**
 * S-14 / S-15: a counted standard foul by a player with `standing` consecutive fouls is the third foul when
 * it makes three, and, with `requireTwoFoulWarning` (D-6), only once the player was warned on two fouls.
 */
export function isThirdFoul(opt: Pick<StraightPoolOptions, 'requireTwoFoulWarning'>, standing: number, warned: boolean): boolean {
  return standing + 1 >= 3 && (!opt.requireTwoFoulWarning || warned);
}

/** S-13 / S-14: points a standard foul costs: the standard penalty, plus the extra on a third foul (1 + 15 = 16 by default). */
export function standardFoulCost(opt: Pick<StraightPoolOptions, 'standardFoulPenalty' | 'threeFoulExtraPenalty'>, thirdFoul: boolean): number {
  return opt.standardFoulPenalty + (thirdFoul ? opt.threeFoulExtraPenalty : 0);
}
