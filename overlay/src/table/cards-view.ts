/**
 * The view model of the table overlay's two cards (shared/cards.ts holds their data): what the intro and the
 * summary print, in the overlay's language and display order, with the overlay parameters applied. Pure, so
 * the components stay markup and the tests check the values the page renders.
 *
 * Names: the form the scorebug chose for the match (`chosen`, issue 29: one form per player on air, names.ts
 * `chooseMatchNames`); before the scorebug has chosen, the full name on the wide card of the bar layout, the short
 * display name on the narrow card of the corner layout, then the short name and the family name (`nameForms`);
 * all pass through `clean` (what the machine cannot draw is dropped, names.ts), and a name left empty reads
 * "Player A" / "Player B".
 */
import type { CardPlayer, IntroCard, SummaryCard } from '../../../shared/cards';
import { drawMatchLabel } from '../../../shared/draw/labels';
import type { Pair, PlayerKey } from '../../../shared/protocol/setup';
import { avg, num } from '../../../web/src/lib/format';
import { t } from '../../../web/src/lib/i18n';
import { nameForms } from '../../../web/src/lib/names';
import type { OverlayParams } from '../params';

/** One player on a card. */
export interface CardSide {
  key: PlayerKey;
  /** What the card prints (see the module doc): the first of `forms`. */
  name: string;
  /** The forms FitText may print, best first (names.ts `nameForms`: the name, the short name, the family name). */
  forms: string[];
  /** The full name as entered (tooltip, tests). */
  fullName: string;
  /** Country code for the flag, or null. */
  country: string | null;
  /** The player's own target, shown only in a handicap match ("Race to 90"), else null. */
  target: string | null;
  /** Summary: the score (a true minus sign below zero); intro: null. */
  score: string | null;
  /** Summary: this player won the match. */
  winner: boolean;
}

/** A statistic of the summary, one value per player in display order. */
export interface StatRow {
  /** Stable key for tests: `high-run`, `innings`, `average`, `fouls`, `racks-won`. */
  id: string;
  label: string;
  values: Pair<string>;
}

export interface CardView {
  kind: 'intro' | 'summary';
  /** Head line: the event's name (intro), "Final" or "Score" (summary). */
  title: string;
  /**
   * Beside the title: the table (intro), the event and the table (summary), after the match's round and bracket
   * place when the event's draw made it ("Winners R2 · M5 · TV table").
   */
  where: string;
  /** Both players in display order (`side`). */
  players: Pair<CardSide>;
  /** Between the players: "Race to 100", or the discipline when the targets differ. */
  centre: string;
  /** Intro: the discipline and format, then who breaks. Summary: empty. */
  details: string[];
  /** Summary: high run, innings, average, fouls and (Rotation) racks won. Intro: empty. */
  rows: StatRow[];
}

/** The two sides of a card in display order (`p.first` left / on top). */
function sides(
  players: Pair<CardPlayer>,
  p: OverlayParams,
  clean: (s: string) => string,
  side: (key: PlayerKey, i: 0 | 1) => Pick<CardSide, 'target' | 'score' | 'winner'>,
  chosen: readonly [string, string] | null,
): Pair<CardSide> {
  const one = (key: PlayerKey): CardSide => {
    const i = key === 'A' ? 0 : 1;
    const pl = players[i];
    const short = p.layout === 'corner' && pl.short ? clean(pl.short).trim() : '';
    const name = chosen?.[i] || short || clean(pl.name).trim() || t(p.lang, 'playerKey', { p: key });
    // The scorebug's choice is the one form on air (issue 29): the card fits its size, never another form.
    const forms = chosen?.[i] ? [name] : nameForms(name, pl.short ? clean(pl.short).trim() : '');
    return { key, name, forms, fullName: pl.name, country: pl.country, ...side(key, i) };
  };
  const second: PlayerKey = p.first === 'A' ? 'B' : 'A';
  return [one(p.first), one(second)];
}

/** The race between the players, or the discipline when each has their own target (`hide=target`: nothing). */
function centreOf(discipline: IntroCard['discipline'], targets: Pair<number>, p: OverlayParams): string {
  if (targets[0] !== targets[1]) return t(p.lang, discipline === '14-1' ? 'straightPool' : 'rotation');
  return p.hide.has('target') ? '' : t(p.lang, 'raceTo', { n: targets[0] });
}

/** A handicap player's own target, else null. */
function ownTarget(targets: Pair<number>, i: 0 | 1, p: OverlayParams): string | null {
  return targets[0] !== targets[1] && !p.hide.has('target') ? t(p.lang, 'raceTo', { n: targets[i] }) : null;
}

/** `Score 8 – 13` in the card's player order (an intro re-sent after the first step). */
function scoreLine(score: Pair<number>, players: Pair<CardSide>, p: OverlayParams): string {
  const of = (s: CardSide) => num(score[s.key === 'A' ? 0 : 1]);
  return `${t(p.lang, 'score')} ${of(players[0])} \u2013 ${of(players[1])}`;
}

/** The intro card of a match about to start (`card` from shared/cards.ts `introCard`). */
export function introView(
  card: IntroCard,
  p: OverlayParams,
  clean: (s: string) => string = (s) => s,
  chosen: readonly [string, string] | null = null,
): CardView {
  const players = sides(card.players, p, clean, (_key, i) => ({ target: ownTarget(card.targets, i, p), score: null, winner: false }), chosen);
  const discipline = card.discipline === '14-1' ? `${t(p.lang, 'straightPool')} \u00b7 ${card.ruleset.toUpperCase()}` : t(p.lang, 'rotation');
  const format = card.format === 'single-rack-61' ? `${discipline} \u00b7 ${t(p.lang, 'single61')}` : discipline;
  const breaker = players.find((s) => s.key === card.breaker)!;
  return {
    kind: 'intro',
    title: card.eventName,
    where: card.draw ? `${drawMatchLabel(card.draw, p.lang)} \u00b7 ${card.tableName}` : card.tableName,
    players,
    centre: centreOf(card.discipline, card.targets, p),
    details: [format, card.scoreSoFar ? scoreLine(card.scoreSoFar, players, p) : t(p.lang, 'toBreak', { name: breaker.name })],
    rows: [],
  };
}

/** The summary card of a match (`card` from shared/cards.ts `summaryCard`); `hide=highrun` / `hide=fouls` drop those rows. */
export function summaryView(
  card: SummaryCard,
  p: OverlayParams,
  clean: (s: string) => string = (s) => s,
  chosen: readonly [string, string] | null = null,
): CardView {
  const players = sides(
    card.players,
    p,
    clean,
    (key, i) => ({
      target: ownTarget(card.targets, i, p),
      score: num(card.score[i]),
      winner: card.winner === key,
    }),
    chosen,
  );
  const order = players.map((s) => (s.key === 'A' ? 0 : 1));
  const row = (id: string, label: string, of: (i: 0 | 1) => string): StatRow => ({ id, label, values: [of(order[0]!), of(order[1]!)] });
  const rows: StatRow[] = [];
  if (!p.hide.has('highrun')) rows.push(row('high-run', t(p.lang, 'highRun'), (i) => String(card.highRun[i])));
  rows.push(
    row('innings', t(p.lang, 'innings'), (i) => String(card.innings[i])),
    row('average', t(p.lang, 'average'), (i) => avg(card.average[i])),
  );
  if (!p.hide.has('fouls')) rows.push(row('fouls', t(p.lang, 'fouls'), (i) => String(card.fouls[i])));
  const racksWon = card.racksWon;
  if (racksWon) rows.push(row('racks-won', t(p.lang, 'racksWon'), (i) => String(racksWon[i])));
  return {
    kind: 'summary',
    title: card.winner ? t(p.lang, 'final') : t(p.lang, 'score'),
    where: card.draw ? `${card.eventName} \u00b7 ${drawMatchLabel(card.draw, p.lang)}` : `${card.eventName} \u00b7 ${card.tableName}`,
    players,
    centre: centreOf(card.discipline, card.targets, p),
    details: [],
    rows,
  };
}
