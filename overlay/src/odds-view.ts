/**
 * `show=odds`: what the on-air "what it takes" strip prints (OddsStrip.svelte), from one state and the set-up
 * (shared/win-probability.ts). 14-1: each player's win chance and points needed (the overlay has no statistics:
 * the model takes the prior's foul rate for both players; the dashboard's figure, which has their fouls, may
 * differ by a point or two). Rotation: the points left on the table, each player's way to 61 and to the match.
 * Pure; players in display order (`side`).
 */
import type { MatchSetup } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import { whatItTakes } from '../../shared/win-probability';
import { fill, t } from '../../web/src/lib/i18n';
import type { OverlayView } from './model';
import type { OverlayParams } from './params';

/** One player's cell: name, the big value and the small line under or after it. */
export interface OddsCell {
  key: 'A' | 'B';
  name: string;
  /** 14-1: the win chance ("62 %"); Rotation: what it takes to reach 61 ("61 in 6", "61 ✓"). */
  value: string;
  /** 14-1: "needs 38"; Rotation: "match 40". */
  sub: string;
}

/** The strip: its title, a lead figure (Rotation's points left), both players' cells and the split bar. */
export interface OddsView {
  discipline: '14-1' | 'rotation';
  title: string;
  /** Rotation: the points left on the table; null for 14-1. */
  lead: string | null;
  cells: [OddsCell, OddsCell];
  /** 14-1: the first shown player's chance in [0, 1] (the split bar); null for Rotation. */
  split: number | null;
}

/** The strip for `state` in the order and language of `view` / `p`; names: the shortest form the scorebug has. */
export function oddsView(state: MatchState, setup: MatchSetup, view: OverlayView, p: OverlayParams): OddsView {
  const w = whatItTakes(state, setup);
  const lang = p.lang;
  const cell = (slot: 0 | 1): OddsCell => {
    const pv = view.players[slot];
    const i = pv.key === 'A' ? 0 : 1;
    const name = pv.names[pv.names.length - 1] ?? pv.fullName;
    if (w.discipline === '14-1') {
      return { key: pv.key, name, value: `${Math.round(w.chance[i] * 100)} %`, sub: fill(t(lang, 'oddsNeeds'), { n: String(w.needed[i]) }) };
    }
    const rack =
      w.clinchedBy === pv.key ? t(lang, 'oddsClinched') : w.canClinch[i] ? fill(t(lang, 'oddsClinch'), { n: String(w.rackNeeded[i]) }) : t(lang, 'oddsOut');
    return { key: pv.key, name, value: rack, sub: fill(t(lang, 'oddsMatch'), { n: String(w.matchNeeded[i]) }) };
  };
  const cells: [OddsCell, OddsCell] = [cell(0), cell(1)];
  if (w.discipline === '14-1') {
    const first = view.players[0].key === 'A' ? 0 : 1;
    return { discipline: '14-1', title: t(lang, 'oddsChance'), lead: null, cells, split: w.chance[first] };
  }
  return { discipline: 'rotation', title: t(lang, 'oddsTable'), lead: String(w.pointsLeft), cells, split: null };
}
