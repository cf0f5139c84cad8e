/**
 * Milestone pop-ups (`milestones=auto`, issue 28): the top new talking point of the match (shared/talking-points.ts,
 * worded by the server in the overlay's language) as a one-line pop-out where the caption goes, beside the
 * scorebug. Pure choice of what to pop (`nextPop`); Milestone.svelte fetches the points and shows the pop for the
 * overlay's `moment` seconds.
 *
 * At most one every `milestoneShots` steps (default {@link MILESTONE_EVERY}). Why 8: a 14-1 inning runs about 4
 * shots and a pro shot takes about 25 s, so 8 steps is roughly one pop every two innings, 3 minutes apart — the
 * viewer gets a fact at the moments that make one (a run reaching the best of the match, on two fouls,
 * hill-hill) without a graphic on every shot, and a caption or a moment always wins the line. Never over a card
 * (the table overlay's intro or summary), a caption or moment, or a shot clock under 10 s: a pop up is taken down at
 * once, and a point that arrives then waits for the line to be free while it is still the latest (a newer step
 * replaces it: a stale fact never airs).
 */

/** Default steps between two pops (see the module's note). */
export const MILESTONE_EVERY = 8;
/** Allowed range of `milestoneShots`. */
export const MILESTONE_EVERY_RANGE: readonly [number, number] = [2, 100];
/** Seconds left on a running shot clock under which no pop shows (the clock is the story then). */
export const CLOCK_QUIET_BELOW = 10;

/** A talking point as the pop-up needs it. */
export interface PopPoint {
  key: string;
  text: string;
  new: boolean;
}

/** What the pop-ups remember: the version of the last pop (null: none yet) and the first version seen. */
export interface PopMemory {
  lastPop: number | null;
  firstSeen: number | null;
}

/** Nothing popped yet, nothing seen. */
export const NO_POPS: PopMemory = { lastPop: null, firstSeen: null };

/**
 * What to pop for the points of match `version`: the top new point, unless `held` (a card, caption, moment or
 * shot clock under 10 s is up), the version is the first the page saw (a reload pops nothing), or fewer than
 * `every` steps passed since the last pop. Returns the point (or null) and the memory after.
 */
export function nextPop(
  points: readonly PopPoint[],
  version: number,
  held: boolean,
  memory: PopMemory,
  every: number,
): { pop: PopPoint | null; memory: PopMemory } {
  const firstSeen = memory.firstSeen ?? version;
  const seen: PopMemory = { ...memory, firstSeen };
  if (version <= firstSeen || held) return { pop: null, memory: seen };
  if (memory.lastPop !== null && version - memory.lastPop < every) return { pop: null, memory: seen };
  const top = points.find((p) => p.new);
  if (!top) return { pop: null, memory: seen };
  return { pop: top, memory: { firstSeen, lastPop: version } };
}
