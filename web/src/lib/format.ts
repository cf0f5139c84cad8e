/**
 * The pages' words and numbers for a match: signed numbers with a true minus sign, and every sentence about
 * the play — the caption of the last step, the situation line (what is pending), a recent-step line and an
 * undo line — built from the engine's facts (`Outcome`, `MatchState`) with the one translation table of each
 * language. The same functions on every page (overlay, dashboard, spectator page, scorer), in every language,
 * English included. Pure functions over the protocol types, on-air strings only (the overlay's budget).
 */
import type { Pair, PlayerKey } from '../../../shared/protocol/setup';
import { type MatchState, type NextUp, type Outcome, RACK_CLINCH } from '../../../shared/protocol/state';
import { isOnTwoFouls } from '../../../shared/rules/penalties';
import { type AirKey, type Lang, t } from './i18n';

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

/** Player names, A first (`MatchState.names`). */
export type Names = Readonly<Pair<string>>;

/** Between what a step did and what is pending, in one line. */
const THEN = ' \u00b7 ';

/**
 * What one step did, as a commentator says it, naming the player: "Ann +1, run 5", "Bo +2, run 14, re-rack,
 * 14 balls", "Ann — third foul (scratch) −16", "Ann — no rail −1, on two fouls", "Bob accepts the table".
 * Points, penalty and run appear wherever the step has them; what comes next is left to {@link nextText}.
 */
export function stepText(o: Outcome, names: Names, lang: Lang): string {
  if (o.kind === 'undo') return o.undone ? undoLine(o.undone, names, lang) : '';
  const name = names[idx(o.by)];
  const parts: string[] = [];
  if (o.kind === 'stalemate') parts.push(t(lang, 'o.stalemate', { n: o.rerack?.racked ?? 15 }));
  else if (o.kind === 'warning') parts.push(t(lang, 'o.warned', { name }));
  else if (o.kind === 'choice') parts.push(choiceText(o, name, lang));
  else shotParts(o, name, lang, parts);
  return parts.join(t(lang, 'o.listSep'));
}

/** A shot: the foul, the push out, the points with the run, or the miss / safety; then what else it did. */
function shotParts(o: Outcome, name: string, lang: Lang, parts: string[]): void {
  if (o.foul || o.turnEnd === 'illegal-break') {
    parts.push(t(lang, 'o.foul', { name, what: foulText(o, lang) }) + (o.penalty > 0 ? ` ${minus(o.penalty)}` : ''));
    if (o.foul === 'foul' && isOnTwoFouls(o.standingFouls)) parts.push(t(lang, 'o.onTwoFouls'));
  } else if (o.turnEnd === 'push-out') {
    parts.push(t(lang, 'o.pushOut', { name }));
  } else if (o.points > 0) {
    parts.push(
      // One ball worth its number (Rotation): named once, by its points ("Ann +12", never "+12 (12)").
      o.balls?.length === 1 && o.balls[0] === o.points
        ? t(lang, 'o.points', { name, n: o.points })
        : o.balls
          ? t(lang, 'o.pointsBalls', { name, n: o.points, balls: o.balls.join(t(lang, 'o.ballSep')) })
          : t(lang, 'o.points', { name, n: o.points }),
    );
    parts.push(t(lang, 'o.run', { run: o.run }));
    if (o.clinched) parts.push(t(lang, 'o.clinched', { n: RACK_CLINCH }));
    if (o.tieBreak) parts.push(t(lang, 'o.tieBreak'));
  } else {
    parts.push(t(lang, o.safety ? 'o.safety' : o.dryBreak ? 'o.dryBreak' : 'o.miss', { name }));
    if (o.spottedBalls?.length) parts.push(t(lang, 'o.respotted', { balls: o.spottedBalls.join(t(lang, 'o.ballSep')) }));
    else if (o.spotted) parts.push(t(lang, 'o.spotted', { n: o.spotted }));
    if (o.run > 0) parts.push(t(lang, 'o.runEnded', { run: o.run }));
  }
  if (o.rerack) {
    parts.push(o.rerack.reason === 'new-rack' ? t(lang, 'o.rackOver', { n: o.rack }) : t(lang, 'o.rerack', { n: o.rerack.racked }));
  }
}

/** The foul of a shot: its kind (breaking foul, third foul) and why, or just why ("scratch + touched ball"). */
function foulText(o: Outcome, lang: Lang): string {
  const why = (o.fouls ?? [])
    .map((r) => t(lang, `foul.${r}` as AirKey, r === 'wrong-ball' ? { n: o.firstContact ?? '' } : undefined))
    .join(t(lang, 'o.foulSep'));
  const kind = o.foul === 'breaking-foul' ? 'o.breakingFoul' : o.foul === 'third-foul' ? 'o.thirdFoul' : null;
  if (kind) return why ? t(lang, 'o.detail', { what: t(lang, kind), detail: why }) : t(lang, kind);
  if (!o.foul) return t(lang, 'foul.illegal-break'); // R-4b / D-17: an illegal break that is not a foul
  const what = why || t(lang, 'foul.other');
  if (o.onPushOut) return t(lang, 'o.foulOnPushOut', { what });
  if (o.onBreak) return t(lang, 'o.foulOnBreak', { what });
  return what;
}

/** A choice: accept, re-break, re-rack, shoot, pass, or a Rotation foul placement. */
function choiceText(o: Outcome, name: string, lang: Lang): string {
  const p = o.placement;
  if (p) {
    // Ball in hand is what comes next (the situation line says it); the cue ball is named when it stays.
    const low = t(lang, `pl.low.${p.lowestBall}` as AirKey, { n: p.ball ?? '' });
    const what = p.cueBall === 'as-is' ? t(lang, 'pl.cue.as-is') + t(lang, 'o.listSep') + low : low;
    return t(lang, 'o.placed', { name, what });
  }
  const key: AirKey =
    o.choice === 'rebreak'
      ? 'o.rebreak'
      : o.choice === 'rerack'
        ? 'o.rerackChoice'
        : o.choice === 'shoot'
          ? 'o.shoot'
          : o.choice === 'pass'
            ? 'o.pass'
            : 'o.accept';
  return t(lang, key, { name });
}

/**
 * What is pending, in one line: the winner, a choice and who makes it, who places the balls after a Rotation
 * foul (ball in hand anywhere after a third foul, R-9), who breaks, ball in hand; '' when play simply goes on.
 * `thirdFoul`: the pending foul placement follows a third foul.
 */
export function nextText(n: NextUp, thirdFoul: boolean, names: Names, lang: Lang): string {
  if (n.winner) return t(lang, 'wins', { name: names[idx(n.winner)] });
  const name = names[idx(n.turn)];
  switch (n.awaiting) {
    case 'break-foul-choice':
      return t(lang, 'toChooseBreakFoul', { name });
    case 'three-foul-choice':
      return t(lang, 'toChooseThreeFoul', { name });
    case 'push-out-choice':
      return t(lang, 'toChoosePushOut', { name });
    case 'illegal-break-choice':
      return t(lang, 'toChooseIllegalBreak', { name });
    case 'foul-placement':
      return t(lang, thirdFoul ? 'ballInHandAnywhere' : 'toPlace', { name });
  }
  if (n.breakShot) return t(lang, 'toBreak', { name });
  if (n.ballInHand === 'kitchen') return t(lang, 'ballInHandKitchen', { name });
  if (n.ballInHand === 'anywhere') return t(lang, 'ballInHandAnywhere', { name });
  return '';
}

/**
 * One step in a list of recent steps (dashboard, scorer): what it did and, when something was left pending,
 * what: "Ann — breaking foul −2 · Bob to choose: accept the table or re-break".
 */
export function stepLine(o: Outcome, names: Names, lang: Lang): string {
  const then = nextText(o.next, o.foul === 'third-foul', names, lang);
  const text = stepText(o, names, lang);
  return then ? text + THEN + then : text;
}

/** What an undo took back: "Undone: Ann +3, run 3". `undone` is the outcome of the step taken back. */
export function undoLine(undone: Outcome, names: Names, lang: Lang): string {
  return t(lang, 'o.undone', { what: stepText(undone, names, lang) });
}

/**
 * The caption of the last step, in `lang` — the one caption every page shows ("Ann — third foul −16").
 * Each fact is shown once: what comes next is the {@link situation} line's, so the caption leaves it out —
 * unless `alone` says no situation line is shown beside it (overlay `hide=situation`).
 */
export function caption(state: MatchState, lang: Lang, alone = false): string {
  const o = state.last;
  if (!o) return '';
  const text = stepText(o, state.names, lang);
  const sit = alone ? situation(state, lang) : '';
  return sit ? text + THEN + sit : text;
}

/** The standing situation in one line (see {@link nextText}); '' when play simply goes on. */
export function situation(state: MatchState, lang: Lang): string {
  const next: NextUp = {
    turn: state.turn,
    awaiting: state.awaiting,
    ballInHand: state.ballInHand,
    breakShot: state.breakShot,
    rack: state.rack,
    winner: state.winner,
  };
  return nextText(next, state.foulPlacement?.thirdFoul ?? false, state.names, lang);
}
