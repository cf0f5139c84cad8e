/**
 * The commentator's lines. What-if: what the next foul costs a player on two fouls (14-1 S-14: standard
 * foul penalty plus the third-foul extra, 1 + 15 = 16 by default; S-15: only the standard penalty while a
 * required two-foul warning has not been given), points each player still needs, and in
 * Rotation the points left on the table and how far each player is from clinching the rack at 61. And the
 * rules' consistency check in words (14-1 INV-1 / INV-2, Rotation INV-R1).
 */
import type { MatchSetup } from '../../../shared/protocol/setup';
import { isThirdFoul, standardFoulCost } from '../../../shared/rules/penalties';
import { type ConsistencyCheck, RACK_CLINCH, type MatchState } from '../../../shared/protocol/state';
import { idx, minus, num } from './format';
import { type Lang, t } from './i18n-pages';

/** Lines describing what the next steps could change; empty once the match is won. */
export function whatIf(setup: MatchSetup, state: MatchState, lang: Lang): string[] {
  if (state.winner) return [];
  const lines: string[] = [];
  const names = state.names;
  if (setup.discipline === '14-1') {
    const o = setup.options;
    for (const i of [0, 1] as const) {
      if (!state.onTwoFouls[i]) continue;
      // The rules' own count (S-14, S-15): with requireTwoFoulWarning an unwarned third foul counts as a second.
      const third = isThirdFoul(o, state.fouls[i], state.warned[i]);
      const cost = minus(standardFoulCost(o, third));
      lines.push(t(lang, third ? 'whatIfTwoFouls' : 'whatIfTwoFoulsUnwarned', { name: names[i], n: cost }));
    }
    for (const i of [0, 1] as const) lines.push(t(lang, 'whatIfNeeds', { name: names[i], n: state.needed[i] }));
    return lines;
  }
  for (const i of [0, 1] as const) lines.push(t(lang, 'whatIfNeeds', { name: names[i], n: state.needed[i] }));
  lines.push(t(lang, 'whatIfPointsLeft', { n: state.pointsLeft }));
  if (state.rackClinchedBy) {
    lines.push(t(lang, 'whatIfClinched', { name: names[idx(state.rackClinchedBy)] }));
  } else {
    for (const i of [0, 1] as const) {
      const more = RACK_CLINCH - state.rackPoints[i];
      if (more <= state.pointsLeft) lines.push(t(lang, 'whatIfClinch', { name: names[i], n: more }));
    }
  }
  for (const i of [0, 1] as const) {
    if (state.needed[i] > 0 && state.needed[i] <= state.pointsLeft) lines.push(t(lang, 'whatIfRackBall', { name: names[i] }));
  }
  return lines;
}

/** The consistency check's relations in words: "score change 5 = 7 balls − 2 foul points; this rack 7 scored = 15 − 8 on the table". */
export function checkLine(c: ConsistencyCheck, lang: Lang): string {
  const rel = (ok: boolean) => (ok ? '=' : '\u2260');
  if (c.discipline === 'rotation') {
    const line = t(lang, 'checkRotation', { delta: num(c.scoreChange), rel: rel(c.ok), racks: c.racks, fromTable: num(c.fromTable) });
    return c.tieBreak ? `${line} + ${t(lang, 'checkTieBreak')}` : line;
  }
  const line = t(lang, 'checkScore', { delta: num(c.scoreChange), rel: rel(c.scoreOk), scored: c.scored, penalties: c.penalties });
  if (!c.rack) return line;
  return `${line}; ${t(lang, 'checkRack', { scored: c.rack.scored, rel: rel(c.rack.ok), onTable: c.rack.onTable })}`;
}
