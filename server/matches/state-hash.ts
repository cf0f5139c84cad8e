/**
 * The hash of a match's state that a checkpoint stores (issue 16 item 7): what a replay of the log must
 * reproduce at the checkpoint's version. SHA-256 (hex) of the JSON of `{depth, core, stats}`, the stored
 * statistics included (score sheet, rack totals, tallies, recent outcomes). Every object in it is built by the
 * engine's own code in a fixed key order (or read back from a JSON checkpoint written from such objects), so
 * the same state always gives the same text; `canonicalJson` would cost a second pass for nothing.
 */
import { createHash } from 'node:crypto';
import type { Match } from '../../shared/index';
import type { Core } from '../../shared/rules/core';
import { storedStats, type StoredStats } from '../../shared/stats';

/** Hash of a state given as a checkpoint holds it (effective steps, core, stored statistics). */
export function stateHashOf(depth: number, core: Core, stats: StoredStats): string {
  return createHash('sha256').update(JSON.stringify({ depth, core, stats })).digest('hex');
}

/** Hash of `match`'s state (O(sheet rows): the statistics are written out). */
export function matchHash(match: Match): string {
  return stateHashOf(match.depth, match.core, storedStats(match.stats));
}
