/**
 * R-13 (ROT §13): who won a Rotation rack of a race. Pure and tiny (it imports a constant and types), so the
 * statistics' racks won (shared/cards.ts `racksWon`) and the overlay's "rack won" moment
 * (overlay/src/moments.ts) count racks by the same rule.
 */
import type { Pair, PlayerKey } from '../protocol/setup';
import { RACK_CLINCH } from '../protocol/vocabulary';

/**
 * The player whose rack points (`points`, A first) reached RACK_CLINCH (61, more than half of the rack's 120)
 * and so won the rack; null when neither did (a rack shared 60–60). A's 61 is checked first; both at 61
 * or more cannot happen in one rack of 120.
 */
export function rackWinner(points: Readonly<Pair<number>>): PlayerKey | null {
  if (points[0] >= RACK_CLINCH) return 'A';
  if (points[1] >= RACK_CLINCH) return 'B';
  return null;
}
