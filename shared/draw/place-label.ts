/**
 * A draw match's round and bracket place as one line for the venue screens (issue 27 §3: the hall board shows
 * "where" a match of the draw is): "Semi-finals · Match 2", "Losers' round 3 · Match 1", "Hot seat",
 * "Group B · Round 2 · Match 1". Pure; a shared label function for every page may replace it.
 */
import type { DrawMatchView } from './state';

/**
 * The label of `m` from its round name, its place (`… M<n>`: its match number in the round) and its group:
 * the round name, then "Group X · Round n" for a group match, then "Match n" when the place numbers it. A place
 * that is a name of its own ("Final", "Hot seat", "Final reset") is the round name alone.
 */
export function drawPlaceLabel(m: Pick<DrawMatchView, 'roundName' | 'place' | 'group'>): string {
  const n = /\bM(\d+)$/.exec(m.place)?.[1];
  const head = m.group !== undefined ? `Group ${m.group} · ${m.roundName.replace(/^Group round/, 'Round')}` : m.roundName;
  return n ? `${head} · Match ${n}` : head;
}
