/**
 * The scorebug's shot-clock view (issue 18): what the clock segment (ClockSegment.svelte) and each player's
 * extension markers (ExtMarkers.svelte) draw, from the clock the live client holds (web/src/lib/live-clock.ts). Pure.
 */
import type { PlayerKey } from '../../shared/protocol/setup';
import type { ShotClockView } from '../../shared/shot-clock';
import { extensionMarks } from '../../web/src/lib/live-clock';

/** Markers drawn one by one up to this many extensions per player; beyond, one marker and the count left. */
export const EXT_MARKERS_MAX = 3;

/** One player's extension markers: `slots` (filled: still to take), or with many extensions the count left. */
export interface ExtMarkersView {
  key: PlayerKey;
  /** Extensions the player may still take in this period. */
  left: number;
  /** One entry per extension of the period (≤ EXT_MARKERS_MAX), true while it is still to take; empty when `count`. */
  slots: boolean[];
  /** More extensions than markers: one marker (filled while any is left) and this count printed beside it; else null. */
  count: number | null;
}

/**
 * Player `key`'s extension markers of `clock`, or null when there is nothing to mark (no clock, or a match
 * without extensions). Shown whenever the match has a clock (not only while its seconds are on air): like the
 * foul markers, they say what the player has left in the period.
 */
export function extMarkers(clock: ShotClockView | null, key: PlayerKey): ExtMarkersView | null {
  if (!clock || clock.extensionsPerPlayer <= 0) return null;
  const per = clock.extensionsPerPlayer;
  const left = Math.max(0, Math.min(per, clock.extensionsLeft[key === 'A' ? 0 : 1]));
  if (per > EXT_MARKERS_MAX) return { key, left, slots: [], count: left };
  return { key, left, slots: extensionMarks(left, per), count: null };
}
