/**
 * Turning a match state into the words and numbers the pages show: signed numbers with a true minus
 * sign, the caption of the last step, the standing situation line (pending choice, ball in hand, winner).
 * Pure functions over the protocol types; zod-free so the overlay bundle stays small.
 */
import type { PlayerKey } from '../../../shared/protocol/setup';
import type { MatchState } from '../../../shared/protocol/state';
import { type Lang, t } from './i18n';

/** Index 0 for player A, 1 for B. */
export const idx = (p: PlayerKey): 0 | 1 => (p === 'A' ? 0 : 1);
/** The other player. */
export const other = (p: PlayerKey): PlayerKey => (p === 'A' ? 'B' : 'A');

/** Integer with a typographic minus (U+2212) for negatives: `-3` → `−3`. */
export function num(n: number): string {
  return n < 0 ? `\u2212${Math.abs(n)}` : String(n);
}

/** A penalty as shown in a caption: 16 → `−16`. */
export function minus(n: number): string {
  return `\u2212${Math.abs(n)}`;
}

/** Average with two decimals and a typographic minus: 2.456 → `2.46`, -0.667 → `−0.67`. */
export function avg(n: number): string {
  return Number.isFinite(n) ? n.toFixed(2).replace('-', '\u2212') : '0.00';
}

/**
 * Caption of what the last step did, in `lang`. English uses the engine's own caption words
 * (`Outcome.caption`); other languages are built from the outcome's structured fields.
 */
export function caption(state: MatchState, lang: Lang): string {
  const o = state.last;
  if (!o) return '';
  if (lang === 'en' && o.caption) return o.caption;
  const parts: string[] = [];
  if (o.kind === 'undo') return t(lang, 'capUndo');
  if (o.kind === 'stalemate') return t(lang, 'capStalemate');
  if (o.kind === 'warning') return t(lang, 'capWarning');
  if (o.points > 0) parts.push(t(lang, 'capPoints', { n: o.points }));
  switch (o.turnEnd) {
    case 'breaking-foul':
      parts.push(t(lang, 'capBreakingFoul', { p: minus(o.penalty) }));
      break;
    case 'third-foul':
      parts.push(t(lang, 'capThirdFoul', { p: minus(o.penalty) }));
      break;
    case 'foul':
      parts.push(o.penalty > 0 ? t(lang, 'capFoul', { p: minus(o.penalty) }) : t(lang, 'capFoulNoPenalty'));
      break;
    case 'safety':
      parts.push(t(lang, 'capSafety'));
      break;
    case 'miss':
    case 'lost-break':
      if (o.points === 0) parts.push(t(lang, 'capMiss'));
      break;
    case 'push-out':
      parts.push(t(lang, 'capPushOut'));
      break;
    case 'illegal-break':
      parts.push(t(lang, 'capIllegalBreak'));
      break;
    case 'win':
      parts.push(t(lang, 'capMatchWon'));
      break;
  }
  if (o.rerack) {
    if (o.rerack.reason === 'new-rack') parts.push(t(lang, 'capRackWon'));
    else parts.push(t(lang, 'capRerack', { n: o.rerack.racked }));
  }
  return parts.length ? parts.join(' · ') : o.caption;
}

/**
 * The standing situation in one line: the winner, a pending choice and who makes it, ball in hand,
 * or an opening break; '' when play simply goes on.
 */
export function situation(state: MatchState, lang: Lang): string {
  if (state.winner) return t(lang, 'wins', { name: state.names[idx(state.winner)] });
  const name = state.names[idx(state.turn)];
  switch (state.awaiting) {
    case 'break-foul-choice':
      return t(lang, 'toChooseBreakFoul', { name });
    case 'three-foul-choice':
      return t(lang, 'toChooseThreeFoul', { name });
    case 'push-out-choice':
      return t(lang, 'toChoosePushOut', { name });
    case 'illegal-break-choice':
      return t(lang, 'toChooseIllegalBreak', { name });
    case 'foul-placement':
      return t(lang, 'toPlace', { name });
  }
  if (state.ballInHand === 'kitchen') return t(lang, 'ballInHandKitchen', { name });
  if (state.ballInHand === 'anywhere') return t(lang, 'ballInHandAnywhere', { name });
  if (state.breakShot) return t(lang, 'toBreak', { name });
  return '';
}
