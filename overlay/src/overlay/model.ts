/**
 * The overlay's view model: everything the scorebug shows, computed from one match state and the URL
 * parameters (display order, hidden fields, language). Pure, so layouts stay dumb markup.
 */
import type { PlayerKey } from '../../../shared/protocol/setup';
import type { MatchState } from '../../../shared/protocol/state';
import { caption, num, situation } from '../lib/format';
import { type StringKey, t } from '../lib/i18n';
import type { OverlayParams } from './params';

export interface PlayerView {
  key: PlayerKey;
  name: string;
  score: string;
  target: number;
  highRun: number;
  fouls: number;
  onTwoFouls: boolean;
  atTable: boolean;
  winner: boolean;
}

export interface InfoItem {
  /** Stable key for tests and keyed blocks (e.g. `run`, `rack`, `balls`, `lowest`, `points-left`). */
  id: string;
  label: string;
  value: string;
}

export interface OverlayView {
  players: [PlayerView, PlayerView];
  /** Centre label: "Race to 100" when both targets match, else the discipline. */
  centre: string;
  /** Targets differ (handicap): show each player's target beside the score. */
  handicap: boolean;
  info: InfoItem[];
  caption: string;
  situation: string;
  /** 0 when the top/left player is at the table, 1 otherwise; null after the match ends. */
  turnSlot: 0 | 1 | null;
}

const label = (p: OverlayParams, k: StringKey) => t(p.lang, k);

/** Build the view of `state` for the overlay parameters `p`. */
export function overlayView(state: MatchState, p: OverlayParams): OverlayView {
  const player = (key: PlayerKey): PlayerView => {
    const i = key === 'A' ? 0 : 1;
    return {
      key,
      name: state.names[i],
      score: num(state.score[i]),
      target: state.targets[i],
      highRun: state.highRun[i],
      fouls: state.fouls[i],
      onTwoFouls: state.onTwoFouls[i],
      atTable: !state.winner && state.turn === key,
      winner: state.winner === key,
    };
  };
  const first = p.first;
  const second: PlayerKey = first === 'A' ? 'B' : 'A';
  const players: [PlayerView, PlayerView] = [player(first), player(second)];
  const handicap = state.targets[0] !== state.targets[1];
  const centre = handicap
    ? label(p, state.discipline === '14-1' ? 'straightPool' : 'rotation')
    : t(p.lang, 'raceTo', { n: state.targets[0] });

  const info: InfoItem[] = [];
  const h = p.hide;
  if (!h.has('run') && !state.winner) info.push({ id: 'run', label: label(p, 'run'), value: String(state.run) });
  if (!h.has('rack')) info.push({ id: 'rack', label: label(p, 'rack'), value: String(state.rack) });
  if (!h.has('balls')) {
    if (state.discipline === '14-1') {
      info.push({ id: 'balls', label: label(p, 'ballsOnTable'), value: String(state.ballsOnTable) });
    } else {
      if (state.lowestBall !== null) info.push({ id: 'lowest', label: label(p, 'lowestBall'), value: String(state.lowestBall) });
      info.push({ id: 'balls', label: label(p, 'ballsLeft'), value: String(state.ballsOnTable) });
      info.push({ id: 'points-left', label: label(p, 'pointsLeft'), value: String(state.pointsLeft) });
    }
  }
  const turnSlot = state.winner ? null : state.turn === first ? 0 : 1;
  return {
    players,
    centre,
    handicap,
    info,
    // With the situation line hidden the caption carries what comes next itself (each fact shown once).
    caption: h.has('caption') ? '' : caption(state, p.lang, h.has('situation')),
    situation: h.has('situation') ? '' : situation(state, p.lang),
    turnSlot,
  };
}
