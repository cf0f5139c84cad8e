/**
 * Turning a match state into the words and numbers the pages show: signed numbers with a true minus
 * sign, the caption of the last step and the standing situation line (pending choice, ball in hand,
 * winner) — the same functions on every page, so the overlay, dashboard and spectator page agree.
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

/** Upper-case the first letter unless the text starts with a player's name (names stay as entered). */
function capital(s: string, names: readonly string[]): string {
  if (!s || names.some((n) => n && s.startsWith(n))) return s;
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * The caption of what the last step did, in `lang` — the one caption function every page (overlay,
 * dashboard, spectator page) shows, first letter capitalised ("Foul: −1").
 *
 * English uses the engine's caption words (`Outcome.caption`); other languages are built from the
 * outcome's structured fields. Each fact is shown once: what comes next (a pending choice or placement,
 * ball in hand, the next breaker, the winner) is the {@link situation} line's, so it is left out of the
 * caption — unless `alone` says no situation line is shown beside it (overlay `hide=situation`).
 */
export function caption(state: MatchState, lang: Lang, alone = false): string {
  const o = state.last;
  if (!o) return '';
  if (lang === 'en' && o.caption) {
    // The engine marks the words about what comes next (`then`); the situation line says them instead.
    const text = !alone && o.then && o.caption.endsWith(o.then) ? o.caption.slice(0, -o.then.length) : o.caption;
    return capital(text, state.names);
  }
  const parts: string[] = [];
  if (o.kind === 'undo') return t(lang, 'capUndo');
  if (o.kind === 'stalemate') return t(lang, 'capStalemate');
  if (o.kind === 'warning') return t(lang, 'capWarning');
  if (o.points > 0) parts.push(t(lang, 'capPoints', { n: o.points }));
  const pen = o.penalty > 0 ? ` ${minus(o.penalty)}` : '';
  switch (o.turnEnd) {
    case 'breaking-foul':
      parts.push(t(lang, 'capBreakingFoul') + pen);
      break;
    case 'third-foul':
      parts.push(t(lang, 'capThirdFoul') + pen);
      break;
    case 'foul':
      parts.push(t(lang, 'capFoul') + pen);
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
  }
  if (o.rerack) {
    if (o.rerack.reason === 'new-rack') parts.push(t(lang, 'capRackWon'));
    else parts.push(t(lang, 'capRerack', { n: o.rerack.racked }));
  } else if (o.kind === 'choice') {
    // accept / shoot / placement: the chooser plays on; pass: the turn went back to the pusher.
    parts.push(state.turn === o.by ? t(lang, 'capPlaysOn', { name: state.names[idx(o.by)] }) : t(lang, 'capPassedBack'));
  }
  if (alone) {
    const sit = situation(state, lang);
    if (sit) parts.push(sit);
  }
  return parts.join(' · ');
}

/**
 * The standing situation in one line: the winner, a pending choice and who makes it, who places the
 * balls after a Rotation foul (ball in hand anywhere after a third foul, R-9), who breaks, ball in hand;
 * '' when play simply goes on.
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
      return t(lang, state.foulPlacement?.thirdFoul ? 'ballInHandAnywhere' : 'toPlace', { name });
  }
  if (state.breakShot) return t(lang, 'toBreak', { name });
  if (state.ballInHand === 'kitchen') return t(lang, 'ballInHandKitchen', { name });
  if (state.ballInHand === 'anywhere') return t(lang, 'ballInHandAnywhere', { name });
  return '';
}
