/** Helpers of the draw tests: fields, and playing a draw to its end with chosen winners. */
import {
  applyDrawEntry,
  matchViews,
  newDraw,
  readyMatches,
  type DrawDefinition,
  type DrawEntry,
  type DrawMatchView,
  type DrawState,
} from '../../shared/draw/index';

/** Players p1…pn, rated so p1 is the best. */
export function field(n: number): DrawDefinition['players'] {
  return Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}`, rating: 2000 - i }));
}

/** A new draw that must be accepted. */
export function draw(def: DrawDefinition): DrawState {
  const s = newDraw(def);
  if ('error' in s) throw new Error(s.error.message);
  return s;
}

/** Apply an entry that must be accepted. */
export function apply(s: DrawState, e: DrawEntry): DrawState {
  const r = applyDrawEntry(s, e);
  if ('error' in r) throw new Error(`${JSON.stringify(e)}: ${r.error.message}`);
  return r.state;
}

/** A match by id. */
export function view(s: DrawState, id: string): DrawMatchView {
  const m = matchViews(s).find((v) => v.id === id);
  if (!m) throw new Error(`no match ${id}`);
  return m;
}

/** A win for the player in slot `slot` (0 = A) of match `id`, by 5 to 2. */
export function win(s: DrawState, id: string, slot: 0 | 1): DrawEntry {
  const m = view(s, id);
  return { t: 'result', match: id, winner: m.players[slot]!, kind: 'win', score: slot === 0 ? [5, 2] : [2, 5] };
}

/**
 * Play the draw to its end: at each turn `pick(readyIds)` chooses the match and `winnerOf(match)` the winner's
 * slot; every result goes through `applyDrawEntry`. `check` sees the state after each entry.
 * @returns the final state and the entries applied.
 */
export function playOut(
  s0: DrawState,
  pick: (ready: string[]) => string,
  winnerOf: (m: DrawMatchView) => 0 | 1,
  check?: (s: DrawState) => void,
): { state: DrawState; entries: DrawEntry[] } {
  let s = s0;
  const entries: DrawEntry[] = [];
  for (let guard = 0; guard < 10_000; guard++) {
    const ready = readyMatches(s);
    if (ready.length === 0) return { state: s, entries };
    const id = pick(ready);
    const e = win(s, id, winnerOf(view(s, id)));
    s = apply(s, e);
    entries.push(e);
    check?.(s);
  }
  throw new Error('the draw never ended');
}
