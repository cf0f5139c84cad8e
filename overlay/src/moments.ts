/**
 * Moments: the card the overlay shows for a few seconds beside the scorebug (above the bar, under or over a
 * corner bug) — never in its place, so the score stays on screen (issue 17). Triggers are derived
 * from the previous and the new match state (state.last, rack, run, highRun, winner), never from caption text:
 *
 * - `match-won`: a winner appeared (each player's final score by their name, the winner marked; the race; both
 *   high runs, each by its player's name);
 * - `rack-won` (Rotation): the step emptied the table and a new rack began (`last.rerack.reason` `new-rack`, R-11),
 *   won by the player who reached 61 in it (R-13, shared/rules/rack-won.ts, as the statistics count racks won);
 *   a rack shared 60–60 was won by nobody and shows none;
 * - `rerack` (14-1): a continuous re-rack (14-1 §07) — the shooter's run so far;
 * - `high-run`: a run ended longer than the match's best when it started (and at least {@link HIGH_RUN_MIN}).
 *
 * One moment per step, in that order of precedence. An undo or the first state of a page shows none.
 * Pure: `nextMoment` takes the previous state and a small memory (the best run when the current run began)
 * and returns the moment and the new memory.
 */
import type { Discipline, Pair, PlayerKey } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import { rackWinner } from '../../shared/rules/rack-won';
import { num } from '../../web/src/lib/format';
import { t } from '../../web/src/lib/i18n';
import { type InfoItem, slotOf } from './model';
import { nameForms } from '../../web/src/lib/names';
import type { OverlayParams } from './params';

export type MomentKind = 'match-won' | 'rack-won' | 'rerack' | 'high-run';

/** Shortest run worth a "new high run of the match" moment: 14-1 balls, Rotation points. */
export const HIGH_RUN_MIN: Record<Discipline, number> = { '14-1': 10, rotation: 40 };

/** One player on a moment that shows both (match won, rack won): their score by their own name. */
export interface MomentSide {
  key: PlayerKey;
  name: string;
  /** The final score (match won) or this rack's points (rack won). */
  value: string;
  winner: boolean;
}

export interface MomentView {
  kind: MomentKind;
  /** "Match won", "Rack 3 won", "Re-rack", "New high run of the match". */
  title: string;
  player: PlayerKey;
  name: string;
  /** Match won, rack won: both players in display order, each score by its own name, the winner marked; else null. */
  sides: [MomentSide, MomentSide] | null;
  /** Re-rack, new high run: the big figure, the run "14" ('' when `sides` is set). */
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
 * A pair with its players' names, display order: "Holloway-Brennan 20 · Watanabe 32" (the high-run line names its
 * players); a name and its figure never part (a no-break space), the line may break between the players.
 */
function namedPair(p: OverlayParams, pair: Pair<number>, names: Pair<string>): string {
  const order: (0 | 1)[] = p.first === 'A' ? [0, 1] : [1, 0];
  return order.map((i) => `${names[i]}\u00a0${num(pair[i])}`).join(' \u00b7 ');
}

/**
 * The moment the step from `prev` to `next` calls for (null: none, or `hide=moments`), and the memory for the
 * next call. `names` are the display names, A first.
 */
export function nextMoment(
  prev: MatchState,
  next: MatchState,
  memory: MomentMemory,
  p: OverlayParams,
  names: Pair<string>,
): { moment: MomentView | null; memory: MomentMemory } {
  const last = next.last;
  if (!last || last.kind === 'undo' || next.steps <= prev.steps) return { moment: null, memory: momentMemory(next) };
  const runEnded = prev.run > 0 && (next.run === 0 || next.turn !== prev.turn);
  const memoryAfter: MomentMemory = next.run === 0 || runEnded ? { bestAtRunStart: max(next.highRun) } : memory;
  if (p.hide.has('moments')) return { moment: null, memory: memoryAfter };

  const family = names.map((n) => nameForms(n).at(-1) ?? n) as Pair<string>;
  const highRuns = { id: 'moment-high-runs', label: t(p.lang, 'm.highRuns'), value: namedPair(p, next.highRun, family) };
  const make = (
    kind: MomentKind,
    who: PlayerKey,
    title: string,
    figure: string,
    figureLabel: string,
    details: MomentView['details'],
    pair: Pair<number> | null = null,
  ): MomentView => {
    const side = (key: PlayerKey): MomentSide => ({ key, name: names[slotOf(key)], value: num(pair![slotOf(key)]), winner: key === who });
    const second: PlayerKey = p.first === 'A' ? 'B' : 'A';
    return { kind, title, player: who, name: names[slotOf(who)], sides: pair ? [side(p.first), side(second)] : null, figure, figureLabel, details };
  };

  // the rack points of a Rotation rack this step finished (this step's points included) and who won it.
  const rackDone = next.discipline === 'rotation' && last.rerack?.reason === 'new-rack' && next.rack > prev.rack;
  const rack: Pair<number> = [...prev.rackPoints];
  rack[slotOf(last.by)] += last.points;
  const rackBy = rackDone ? rackWinner(rack) : null;

  let moment: MomentView | null = null;
  if (next.winner && !prev.winner) {
    const race = next.targets[0] === next.targets[1] ? t(p.lang, 'raceTo', { n: next.targets[0] }) : pairText(p, next.targets);
    moment = make(
      'match-won',
      next.winner,
      t(p.lang, 'm.matchWon'),
      '',
      t(p.lang, 'score'),
      [{ id: 'moment-race', label: '', value: race }, highRuns],
      next.score,
    );
  } else if (rackBy) {
    moment = make('rack-won', rackBy, t(p.lang, 'm.rackWon', { n: prev.rack }), '', t(p.lang, 'rackPoints'), [], rack);
  } else if (next.discipline === '14-1' && last.rerack?.reason === 'continuous') {
    moment = make('rerack', last.by, t(p.lang, 'm.rerack'), String(next.run), t(p.lang, 'run'), []);
  } else if (runEnded) {
    // The run just ended: its length is the shooter's new high run if this step raised it, else the run before the step.
    const i = slotOf(prev.turn);
    const length = next.highRun[i] > prev.highRun[i] ? next.highRun[i] : prev.run;
    if (length > memory.bestAtRunStart && length >= HIGH_RUN_MIN[next.discipline]) {
      moment = make('high-run', prev.turn, t(p.lang, 'm.highRun'), String(length), t(p.lang, 'run'), [
        ...(memory.bestAtRunStart > 0 ? [{ id: 'moment-previous', label: t(p.lang, 'm.previousBest'), value: String(memory.bestAtRunStart) }] : []),
      ]);
    }
  }
  return { moment, memory: memoryAfter };
}
