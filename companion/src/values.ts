/**
 * What the module shows on the buttons, computed from what it follows (pure): the table (shared/protocol/event.ts
 * `TableState`), the table's current match (set-up and state) and its shot clock as shown now (web/src/lib/live-clock.ts
 * `showClock`: shared/shot-clock.ts `shownSeconds` and `warningLevel`). `VARIABLES` lists the variables (id and
 * name) and `variableValues` their values; `atTable`, `onTwoFouls`, `clockWarning` and `cardUp` are the feedbacks'
 * states. Unknown facts are '' (text) or 0 (numbers): no match on the table, no clock, not connected yet.
 */
import type { CardsState, TableState } from '../../shared/protocol/event';
import type { MatchSetup } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import type { PlayerKey } from '../../shared/protocol/vocabulary';
import type { ShownClock } from '../../web/src/lib/live-clock';

/** Everything the module follows, as it stands. */
export interface Followed {
  table: TableState | null;
  /** The table's current match (null: none, or not loaded yet). */
  match: { matchId: string; version: number; setup: MatchSetup; state: MatchState } | null;
  /** The current match's shot clock as shown now (null: the match has no clock). */
  clock: ShownClock | null;
}

/** A variable value as Companion takes it. */
export type VariableValue = string | number | boolean;

/** The variables, in the order Companion lists them: id (`$(cuecast:<id>)`) and what it holds. */
export const VARIABLES = [
  ['table_name', 'Table name'],
  ['match_id', 'Current match id'],
  ['name_a', 'Player A name'],
  ['name_b', 'Player B name'],
  ['short_a', 'Player A short name (else the name)'],
  ['short_b', 'Player B short name (else the name)'],
  ['score_a', 'Player A score'],
  ['score_b', 'Player B score'],
  ['race_a', 'Player A race (points needed to win)'],
  ['race_b', 'Player B race (points needed to win)'],
  ['race', 'Race (the common target; empty in a handicap match)'],
  ['run', 'Run of the player at the table'],
  ['high_run_a', 'Player A high run'],
  ['high_run_b', 'Player B high run'],
  ['fouls_a', 'Player A fouls standing (2: on two fouls)'],
  ['fouls_b', 'Player B fouls standing (2: on two fouls)'],
  ['rack', 'Rack'],
  ['at_table', 'At the table: A or B (empty when the match is over)'],
  ['at_table_name', 'Name of the player at the table'],
  ['winner', 'Winner: A or B (empty while playing)'],
  ['clock_seconds', 'Shot clock seconds shown (empty without a clock)'],
  ['clock_status', 'Shot clock: idle, running, paused, expired (empty without a clock)'],
  ['clock_level', 'Shot clock warning: none, warning, urgent'],
  ['extensions_left_a', 'Player A extensions left'],
  ['extensions_left_b', 'Player B extensions left'],
  ['card', 'Card up on the overlay: none, intro, summary'],
  ['card_up', 'A card is up (true/false)'],
  ['caption_hidden', 'The overlay caption is hidden (true/false)'],
  ['next_a', 'Next match: player A'],
  ['next_b', 'Next match: player B'],
] as const;

/** A variable id. */
export type VariableId = (typeof VARIABLES)[number][0];
/** Every variable's value. */
export type VariableValues = Record<VariableId, VariableValue>;

const i = (p: PlayerKey): 0 | 1 => (p === 'A' ? 0 : 1);

/** Every variable's value for what is followed (see `VARIABLES`). */
export function variableValues(f: Followed): VariableValues {
  const t = f.table;
  const s = f.match?.state ?? null;
  const setup = f.match?.setup ?? null;
  const names = s?.names ?? ['', ''];
  const short = (k: 0 | 1) => setup?.shortNames?.[k] ?? names[k];
  const turn = s && !s.winner ? s.turn : '';
  const c = f.clock;
  const common = s && s.targets[0] === s.targets[1] ? s.targets[0] : '';
  return {
    table_name: t?.name ?? '',
    match_id: f.match?.matchId ?? '',
    name_a: names[0],
    name_b: names[1],
    short_a: short(0),
    short_b: short(1),
    score_a: s?.score[0] ?? 0,
    score_b: s?.score[1] ?? 0,
    race_a: s?.targets[0] ?? 0,
    race_b: s?.targets[1] ?? 0,
    race: common,
    run: s && !s.winner ? s.run : 0,
    high_run_a: s?.highRun[0] ?? 0,
    high_run_b: s?.highRun[1] ?? 0,
    fouls_a: s?.fouls[0] ?? 0,
    fouls_b: s?.fouls[1] ?? 0,
    rack: s?.rack ?? 0,
    at_table: turn,
    at_table_name: turn ? names[i(turn)] : '',
    winner: s?.winner ?? '',
    clock_seconds: c ? c.seconds : '',
    clock_status: c ? c.view.status : '',
    clock_level: c ? clockLevel(c) : 'none',
    extensions_left_a: c?.view.extensionsLeft[0] ?? 0,
    extensions_left_b: c?.view.extensionsLeft[1] ?? 0,
    card: t?.cards.show ?? 'none',
    card_up: cardUp(t?.cards ?? null, 'any'),
    caption_hidden: t?.cards.captionHidden ?? false,
    next_a: t?.nextPlayers?.[0] ?? '',
    next_b: t?.nextPlayers?.[1] ?? '',
  };
}

/** The warning level a clock shows: none while idle (it is not counting), else the level of its shown seconds. */
function clockLevel(c: ShownClock): 'none' | 'warning' | 'urgent' {
  return c.view.status === 'idle' ? 'none' : c.level;
}

/** The variables whose value differs between `before` (null: none sent yet) and `after`. */
export function changedValues(before: VariableValues | null, after: VariableValues): Partial<VariableValues> {
  const out: Partial<Record<VariableId, VariableValue>> = {};
  for (const [id] of VARIABLES) if (!before || before[id] !== after[id]) out[id] = after[id];
  return out;
}

/** Feedback "at the table": `player` shoots next (or decides) in a match not yet won. */
export function atTable(f: Followed, player: PlayerKey): boolean {
  const s = f.match?.state;
  return !!s && s.winner === null && s.turn === player;
}

/** Feedback "on two fouls": `player` has two fouls standing (14-1: the next foul costs 16; S-14/S-15). */
export function onTwoFouls(f: Followed, player: PlayerKey): boolean {
  const s = f.match?.state;
  return !!s && s.winner === null && s.onTwoFouls[i(player)];
}

/**
 * Feedback "clock warning": the shot clock is counting (running, paused or expired: not idle) and shows `level` or
 * worse (`warning`: from the settings' warning seconds; `urgent`: from the urgent seconds, expired included).
 */
export function clockWarning(f: Followed, level: 'warning' | 'urgent'): boolean {
  if (!f.clock) return false;
  const shown = clockLevel(f.clock);
  return level === 'warning' ? shown !== 'none' : shown === 'urgent';
}

/** Feedback "card up": the table's overlay shows `kind` (`any`: the intro or the summary). */
export function cardUp(cards: CardsState | null, kind: 'any' | 'intro' | 'summary'): boolean {
  if (!cards || cards.show === 'none') return false;
  return kind === 'any' || cards.show === kind;
}
