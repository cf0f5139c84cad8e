/**
 * Moments: the larger graphic the overlay shows for a few seconds instead of the bar. Triggers are derived
 * from the previous and the new match state (state.last, rack, run, highRun, winner), never from caption text:
 *
 * - `match-won`: a winner appeared (the winner's name, the final score, the race, both high runs);
 * - `rack-won` (Rotation): the step emptied the table and a new rack began (`last.rerack.reason` `new-rack`, R-11);
 * - `rerack` (14-1): a continuous re-rack (14-1 §07) — the shooter's run so far;
 * - `high-run`: a run ended longer than the match's best when it started (and at least {@link HIGH_RUN_MIN}).
 *
 * One moment per step, in that order of precedence. An undo or the first state of a page shows none.
 * Pure: `nextMoment` takes the previous state and a small memory (the best run when the current run began)
 * and returns the moment and the new memory.
 */
import type { Discipline, Pair, PlayerKey } from '../../../shared/protocol/setup';
import type { MatchState } from '../../../shared/protocol/state';
import { num } from '../lib/format';
import { t } from '../lib/i18n';
import { type InfoItem, slotOf } from './model';
import type { OverlayParams } from './params';

export type MomentKind = 'match-won' | 'rack-won' | 'rerack' | 'high-run';

/** Shortest run worth a "new high run of the match" moment: 14-1 balls, Rotation points. */
export const HIGH_RUN_MIN: Record<Discipline, number> = { '14-1': 10, rotation: 40 };

export interface MomentView {
  kind: MomentKind;
  /** "Match won", "Rack 3 won", "Re-rack", "New high run of the match". */
  title: string;
  player: PlayerKey;
  name: string;
  /** The big figure: a score line "100 – 87" (display order) or a run "14". */
  figure: string;
  figureLabel: string;
  /** Smaller facts under the figure (score, race, high runs, previous best). */
  details: InfoItem[];
}

/** What `nextMoment` remembers between states: the match's best run when the current run began. */
export interface MomentMemory {
  bestAtRunStart: number;
}

const max = (p: Pair<number>) => Math.max(p[0], p[1]);

/** Memory for a page that starts at `state` (boot, or after an undo). */
export function momentMemory(state: MatchState): MomentMemory {
  if (state.run === 0) return { bestAtRunStart: max(state.highRun) };
  // Mid-run: the shooter's own high run may be this very run, so only a longer earlier run counts.
  const i = slotOf(state.turn);
  const own = state.highRun[i] > state.run ? state.highRun[i] : 0;
  return { bestAtRunStart: Math.max(own, state.highRun[1 - i]!) };
}

/** A pair in display order (`side`): "100 – 87". */
function pairText(p: OverlayParams, pair: Pair<number>): string {
  const [a, b] = p.first === 'A' ? pair : [pair[1], pair[0]];
  return `${num(a)} \u2013 ${num(b)}`;
}

/**
 * The moment the step from `prev` to `next` calls for (null: none, or `hide=moments`), and the memory for the
 * next call. `names` are the display names, A first.
 */
export function nextMoment(prev: MatchState, next: MatchState, memory: MomentMemory, p: OverlayParams, names: Pair<string>): { moment: MomentView | null; memory: MomentMemory } {
  const last = next.last;
  if (!last || last.kind === 'undo' || next.steps <= prev.steps) return { moment: null, memory: momentMemory(next) };
  const runEnded = prev.run > 0 && (next.run === 0 || next.turn !== prev.turn);
  const memoryAfter: MomentMemory = next.run === 0 || runEnded ? { bestAtRunStart: max(next.highRun) } : memory;
  if (p.hide.has('moments')) return { moment: null, memory: memoryAfter };

  const score = { id: 'moment-score', label: t(p.lang, 'score'), value: pairText(p, next.score) };
  const highRuns = { id: 'moment-high-runs', label: t(p.lang, 'm.highRuns'), value: pairText(p, next.highRun) };
  const make = (kind: MomentKind, who: PlayerKey, title: string, figure: string, figureLabel: string, details: MomentView['details']): MomentView => ({
    kind,
    title,
    player: who,
    name: names[slotOf(who)],
    figure,
    figureLabel,
    details,
  });

  let moment: MomentView | null = null;
  if (next.winner && !prev.winner) {
    const race = next.targets[0] === next.targets[1] ? t(p.lang, 'raceTo', { n: next.targets[0] }) : pairText(p, next.targets);
    moment = make('match-won', next.winner, t(p.lang, 'm.matchWon'), pairText(p, next.score), t(p.lang, 'score'), [
      { id: 'moment-race', label: '', value: race },
      highRuns,
    ]);
  } else if (next.discipline === 'rotation' && last.rerack?.reason === 'new-rack' && next.rack > prev.rack) {
    // the rack ends when the table is empty; the higher rack points win it (this step's points included).
    const rack: Pair<number> = [...prev.rackPoints];
    rack[slotOf(last.by)] += last.points;
    const winner: PlayerKey = rack[0] === rack[1] ? last.by : rack[0] > rack[1] ? 'A' : 'B';
    moment = make('rack-won', winner, t(p.lang, 'm.rackWon', { n: prev.rack }), pairText(p, rack), t(p.lang, 'rackPoints'), [score]);
  } else if (next.discipline === '14-1' && last.rerack?.reason === 'continuous') {
    moment = make('rerack', last.by, t(p.lang, 'm.rerack'), String(next.run), t(p.lang, 'run'), [score]);
  } else if (runEnded) {
    // The run just ended: its length is the shooter's new high run if this step raised it, else the run before the step.
    const i = slotOf(prev.turn);
    const length = next.highRun[i] > prev.highRun[i] ? next.highRun[i] : prev.run;
    if (length > memory.bestAtRunStart && length >= HIGH_RUN_MIN[next.discipline]) {
      moment = make('high-run', prev.turn, t(p.lang, 'm.highRun'), String(length), t(p.lang, 'run'), [
        ...(memory.bestAtRunStart > 0 ? [{ id: 'moment-previous', label: t(p.lang, 'm.previousBest'), value: String(memory.bestAtRunStart) }] : []),
        score,
      ]);
    }
  }
  return { moment, memory: memoryAfter };
}
