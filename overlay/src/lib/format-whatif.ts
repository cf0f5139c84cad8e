/**
 * What-if lines for the commentator: what the next foul costs a player on two fouls (14-1 S-14: standard
 * foul penalty plus the third-foul extra, 1 + 15 = 16 by default; S-15: only the standard penalty while a
 * required two-foul warning has not been given), points each player still needs, and in
 * Rotation the points left on the table and how far each player is from clinching the rack at 61.
 */
import type { MatchSetup } from '../../../shared/protocol/setup';
import { RACK_CLINCH, type MatchState } from '../../../shared/protocol/state';
import { idx, minus } from './format';
import { type Lang, t } from './i18n-pages';


/** Lines describing what the next steps could change; empty once the match is won. */
export function whatIf(setup: MatchSetup, state: MatchState, lang: Lang): string[] {
  if (state.winner) return [];
  const lines: string[] = [];
  const names = state.names;
  if (setup.discipline === '14-1') {
    const o = setup.options;
    const cost = o.standardFoulPenalty + o.threeFoulExtraPenalty;
    for (const i of [0, 1] as const) {
      if (!state.onTwoFouls[i]) continue;
      // S-15: with requireTwoFoulWarning an unwarned third foul counts as a second (standard penalty only).
      if (o.requireTwoFoulWarning && !state.warned[i]) {
        lines.push(t(lang, 'whatIfTwoFoulsUnwarned', { name: names[i], n: minus(o.standardFoulPenalty) }));
      } else lines.push(t(lang, 'whatIfTwoFouls', { name: names[i], n: minus(cost) }));
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
