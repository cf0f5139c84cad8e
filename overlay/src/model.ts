/**
 * The overlay's view model: everything the scorebug shows, computed from one match state, the set-up's
 * short names and the URL parameters (display order, hidden fields, language). Pure, so the Svelte
 * components stay dumb markup and the tests check the same values the page renders.
 * Moments (moments.ts) and the caption line are derived here too; timing lives in onair.ts.
 */
import type { MatchSetup, Pair, PlayerKey } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import type { ScorebugFigures } from '../../shared/protocol/wire';
import { avg, caption, num, situation } from '../../web/src/lib/format';
import { type StringKey, t } from '../../web/src/lib/i18n';
import { nameForms } from '../../web/src/lib/names';
import type { OverlayParams } from './params';

export interface PlayerView {
  key: PlayerKey;
  /**
   * What the scorebug prints, best first: the full name, then the set-up's short name, then the automatic short
   * form (names.ts `nameForms`), each cleaned; FitText takes the first that fits its slot at the type floor.
   */
  names: string[];
  /** The full name as entered (tooltips, tests). */
  fullName: string;
  /** Country code of the set-up (a flag beside the name), or null. */
  country: string | null;
  score: string;
  target: number;
  highRun: number;
  fouls: number;
  onTwoFouls: boolean;
  atTable: boolean;
  winner: boolean;
  /**
   * The player's own items, most wanted first, as a full line leaves them whole from the last. The bar's second
   * row: a Rotation race's racks won, Rotation's points of this rack, the high run, then the `show` items innings
   * and average (the statistics' figure). The corner bug, beside the name: the high run (its figures are pairs
   * in its bottom row, `OverlayView.info`).
   */
  items: InfoItem[];
}

export interface InfoItem {
  /** Stable key for tests and keyed blocks (e.g. `rack`, `balls`, `lowest`, `points-left`). */
  id: string;
  label: string;
  value: string;
  /** The value is a ball's number, drawn as that ball (Rotation's lowest ball). */
  ball?: boolean;
}

export interface OverlayView {
  players: [PlayerView, PlayerView];
  /** Centre label: "Race to 100"; with a handicap the two targets in display order, "Race to 60/40". */
  centre: string;
  /** Targets differ (handicap): each panel shows its own target (the race is then not in the centre). */
  handicap: boolean;
  /**
   * Rack and table facts for the info row (the run is not here: it sits beside the shooter, `run`); in the
   * corner bug first each player's figures as a pair in display order, short labels ("Racks 1–0", ids `racks-won`,
   * `rack-points`, `innings`, `average`).
   */
  info: InfoItem[];
  /**
   * What the middle of the bar's second row always shows first, kept whole as one item of its line (before
   * `info`): in Rotation the lowest ball (drawn as the ball) and the points left (issue 29); else empty (the
   * corner bug has them in `info`, after the players' pairs).
   */
  lead: InfoItem[];
  /** The current run, shown in the panel of the player at the table once it has started (run > 0); null before (the break, after a miss), after the match or with hide=run. */
  run: { slot: 0 | 1; label: string; value: string } | null;
  /** 0 when the top/left player is at the table, 1 otherwise; null after the match ends. */
  turnSlot: 0 | 1 | null;
  /** Labels the panels print ("On 2 fouls", "Winner"), in the overlay's language. */
  labels: { onTwoFouls: string; winner: string; ext: string; run: string };
  /** Rotation with `show=balls`: the balls still on the table, ascending (the first is the lowest); else null. */
  ballRow: number[] | null;
}

/** The one line under/over the scorebug: what just happened merged with what comes next. */
export interface CaptionLine {
  text: string;
  /** A pending choice: the line stays on air until the choice is made (no timeout). */
  sticky: boolean;
  /** The players' names as the line prints them: never broken over two lines (Caption.svelte). */
  names: readonly string[];
}

const label = (p: OverlayParams, k: StringKey) => t(p.lang, k);

/** Player index 0/1 of A/B. */
export const slotOf = (k: PlayerKey): 0 | 1 => (k === 'A' ? 0 : 1);

/**
 * The names the captions and moments print, A first: the set-up's short name when given, else the full name,
 * each passed through `clean` (drops what the machine cannot draw, see names.ts); a name left empty by `clean`
 * falls back to "Player A" / "Player B" in the overlay's language, so a name is never an empty box or a blank.
 */
export function displayNames(
  state: MatchState,
  setup: Pick<MatchSetup, 'shortNames'> | null,
  p: OverlayParams,
  clean: (s: string) => string = (s) => s,
): Pair<string> {
  const pick = (i: 0 | 1): string => {
    const text = clean(setup?.shortNames?.[i] ?? state.names[i]).trim() || clean(state.names[i]).trim();
    return text || t(p.lang, 'playerKey', { p: i === 0 ? 'A' : 'B' });
  };
  return [pick(0), pick(1)];
}

/**
 * The forms of player `i`'s name a slot may print, best first (names.ts `nameForms`): the full name, the
 * set-up's short name, the automatic short form; all cleaned, never empty ("Player A" when nothing is drawable).
 */
export function nameChoices(
  state: MatchState,
  setup: Pick<MatchSetup, 'shortNames'> | null,
  i: 0 | 1,
  p: OverlayParams,
  clean: (s: string) => string = (s) => s,
): string[] {
  const forms = nameForms(clean(state.names[i]).trim(), setup?.shortNames?.[i] ? clean(setup.shortNames[i]!).trim() : '');
  return forms.length ? forms : [t(p.lang, 'playerKey', { p: i === 0 ? 'A' : 'B' })];
}

/**
 * Build the view of `state` for the overlay parameters `p`; `names` from {@link nameChoices} per player, A first
 * (default: the full names only), `countries` the set-up's (flags), `figures` the statistics' figures the
 * server sends with the state (average, a Rotation race's racks won; without them those items are left out).
 */
export function overlayView(
  state: MatchState,
  p: OverlayParams,
  names: Pair<string[]> = [[state.names[0]], [state.names[1]]],
  countries: Pair<string | null> | null = null,
  figures: ScorebugFigures | null = null,
): OverlayView {
  const rotation = state.discipline === 'rotation';
  const corner = p.layout === 'corner';
  // Each player's figures, A first: a Rotation race's racks won, Rotation's points of this rack, the `show` items.
  // `short`: the label of the corner bug's pair, where the room is a third of the bar's ("Racks 1–0").
  const figs: { id: string; label: string; short: string; values: Pair<string> }[] = [];
  const racksWon = rotation ? figures?.racksWon : null;
  if (racksWon)
    figs.push({ id: 'racks-won', label: label(p, 'racksWon'), short: label(p, 'racksWonShort'), values: [String(racksWon[0]), String(racksWon[1])] });
  if (rotation && !p.hide.has('rack'))
    figs.push({
      id: 'rack-points',
      label: label(p, 'rackPoints'),
      short: label(p, 'rackPointsShort'),
      values: [String(state.rackPoints[0]), String(state.rackPoints[1])],
    });
  const shown: typeof figs = [];
  if (p.show.has('innings'))
    shown.push({ id: 'innings', label: label(p, 'innings'), short: label(p, 'innings'), values: [String(state.innings[0]), String(state.innings[1])] });
  if (p.show.has('average') && figures)
    shown.push({ id: 'average', label: label(p, 'average'), short: label(p, 'averageShort'), values: [avg(figures.average[0]), avg(figures.average[1])] });
  const player = (key: PlayerKey): PlayerView => {
    const i = slotOf(key);
    const own = (f: (typeof figs)[number]): InfoItem => ({ id: `${f.id}-${key}`, label: f.label, value: f.values[i] });
    // The corner bug has room for the high run beside the name only: its figures go to the bottom row as pairs.
    const items: InfoItem[] = corner ? [] : figs.map(own);
    if (!p.hide.has('highrun')) items.push({ id: `highrun-${key}`, label: label(p, 'highRun'), value: String(state.highRun[i]) });
    if (!corner) items.push(...shown.map(own));
    return {
      key,
      names: names[i],
      fullName: state.names[i],
      country: countries?.[i] ?? null,
      items,
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
  const targetsShown = first === 'A' ? state.targets : [state.targets[1], state.targets[0]];
  const centre = t(p.lang, 'raceTo', { n: handicap ? `${targetsShown[0]}/${targetsShown[1]}` : state.targets[0] });

  // The corner bug's bottom row: each figure as a pair in display order (top player first), "1–0", before the rack facts.
  const pair = (f: (typeof figs)[number]) => (first === 'A' ? `${f.values[0]}\u2013${f.values[1]}` : `${f.values[1]}\u2013${f.values[0]}`);
  const info: InfoItem[] = corner ? [...figs, ...shown].map((f) => ({ id: f.id, label: f.short, value: pair(f) })) : [];
  const h = p.hide;
  const lead: InfoItem[] = [];
  if (!h.has('rack') && !rotation) info.push({ id: 'rack', label: label(p, 'rack'), value: String(state.rack) });
  if (!h.has('balls')) {
    if (state.discipline === '14-1') {
      info.push({ id: 'balls', label: label(p, 'ballsOnTable'), value: String(state.ballsOnTable) });
    } else if (p.show.has('balls') && state.onTable) {
      // the ball row (ballRow) stands for the lowest ball, balls left and points left
    } else {
      // The lowest ball (the one to hit first) and the points left lead; the balls left follow when there is room.
      // (the bar's `lead`; in the corner bug after the players' pairs, which that scene needs on air first)
      const first = corner ? info : lead;
      if (state.lowestBall !== null) first.push({ id: 'lowest', label: label(p, 'lowestBall'), value: String(state.lowestBall), ball: true });
      first.push({ id: 'points-left', label: label(p, 'pointsLeft'), value: String(state.pointsLeft) });
      info.push({ id: 'balls', label: label(p, 'ballsLeft'), value: String(state.ballsOnTable) });
    }
  }
  if (!h.has('rack') && rotation) info.push({ id: 'rack', label: label(p, 'rack'), value: String(state.rack) });
  const turnSlot: 0 | 1 | null = state.winner ? null : state.turn === first ? 0 : 1;
  const run = turnSlot === null || h.has('run') || state.run <= 0 ? null : { slot: turnSlot, label: label(p, 'run'), value: String(state.run) };
  return {
    players,
    centre,
    handicap,
    info,
    lead,
    run,
    turnSlot,
    labels: { onTwoFouls: label(p, 'onTwoFouls'), winner: label(p, 'winner'), ext: label(p, 'extShort'), run: label(p, 'run') },
    ballRow: rotation && p.show.has('balls') && !p.hide.has('balls') && state.onTable ? [...state.onTable] : null,
  };
}

/**
 * The caption line for `state`: one line, never two stacked. By default the event merged with what comes
 * next (`caption(state, lang, true)`, the formatter's one-line form: "Ann — breaking foul −2 · Bob to choose:
 * accept the table or re-break"); `hide=situation` leaves what comes next out (`caption(state, lang)`);
 * `hide=caption` shows only the situation line; both hidden: nothing. Players are named as the scorebug names
 * them (`names`, from {@link displayNames}: the short name when the set-up has one). A pending choice
 * (breaking foul, third foul, push out, illegal break, foul placement) is `sticky`.
 */
export function captionLine(state: MatchState, p: OverlayParams, names: Pair<string> = state.names): CaptionLine {
  const s = names === state.names ? state : { ...state, names };
  const events = !p.hide.has('caption');
  const next = !p.hide.has('situation');
  const text = events ? caption(s, p.lang, next) : next ? situation(s, p.lang) : '';
  return { text, sticky: text !== '' && state.awaiting !== null, names };
}
