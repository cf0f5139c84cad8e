/**
 * The data feed of a table for title tools (vMix, Singular, …): one flat object of strings and numbers about
 * the table's current match — names, short names, countries, scores, race, run, high runs, fouls standing,
 * rack, who is at the table, the winner, the on-air card and the shot clock — and the same as XML the way vMix's XML data
 * source reads it (one `<table>` element whose children are the columns). Pure: the route
 * (server/transport/http/feed-api.ts) reads the table and the match and sends what these build.
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { TableState } from '../../shared/protocol/event';
import type { MatchSetup } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import { shownSeconds, type ShotClockView, warningLevel } from '../../shared/shot-clock';

/**
 * One table's feed. Text fields are '' when not known (no match on the table, no short name, no country);
 * numbers are 0 then. `race` is the common target ('' in a handicap match: see `raceA` / `raceB`).
 */
export interface TableFeed {
  eventId: string;
  eventName: string;
  table: string;
  tableName: string;
  /** The current match's id, '' when the table has none. */
  matchId: string;
  /** `14-1` or `rotation`, '' without a match. */
  discipline: string;
  nameA: string;
  nameB: string;
  /** Short names as the organiser gave them, else the full name. */
  shortA: string;
  shortB: string;
  /** Country codes (`DE`, `GB-ENG`), '' when none. */
  countryA: string;
  countryB: string;
  scoreA: number;
  scoreB: number;
  /** Points each player needs (the race; differ in a handicap match). */
  raceA: number;
  raceB: number;
  race: number | '';
  /** `A` or `B`: at the table (or to decide); '' when the match is won or there is none. */
  atTable: string;
  /** The name of the player at the table, ''. */
  atTableName: string;
  /** Points of the current inning of the player at the table. */
  run: number;
  highRunA: number;
  highRunB: number;
  /** Consecutive fouls standing (2 = on two fouls). */
  foulsA: number;
  foulsB: number;
  rack: number;
  /** `A`, `B` or ''. */
  winner: string;
  winnerName: string;
  /** The card up on the table's overlay: `none`, `intro` or `summary`. */
  card: string;
  /** The next match's players, '' when none is assigned. */
  nextA: string;
  nextB: string;
  /** The match's version (the number of its recorded steps, undo included): a change means a new shot. */
  version: number;
  /** The shot clock's status: `idle`, `running`, `paused`, `expired`; '' when the match has no shot clock. */
  clockStatus: string;
  /** Whole seconds the shot clock shows at the moment of the request (shared/shot-clock.ts `shownSeconds`); 0 without a clock. */
  clockSeconds: number;
  /** The warning level at those seconds (`warningLevel`): `none`, `warning` (amber), `urgent` (red); '' without a clock. */
  clockWarning: string;
  /** Extensions each player has left in the current extension period; 0 without a clock. */
  extensionsA: number;
  extensionsB: number;
}

/** The current match as the feed needs it. */
export interface FeedMatch {
  setup: MatchSetup;
  state: MatchState;
  version: number;
}

/** The current match's shot clock as the feed needs it: its display view and the server time (ms) of the request. */
export interface FeedClock {
  view: ShotClockView;
  now: number;
}

/**
 * The feed of `table` with its current match `match` (null: none on the table, or it cannot be read) and that
 * match's shot clock `clock` (null: none, or turned off). The clock's seconds and warning level come from
 * shared/shot-clock.ts at `clock.now`, as every display computes them.
 */
export function tableFeed(table: TableState, match: FeedMatch | null, clock: FeedClock | null = null): TableFeed {
  return feedTexts(rawFeed(table, match, clock));
}

/**
 * Characters no feed may carry: every character XML 1.0 forbids (its `Char` production: C0 controls but tab, LF
 * and CR, the surrogates, U+FFFE and U+FFFF) and every Unicode noncharacter (U+FDD0–U+FDEF, U+xFFFE/U+xFFFF in
 * every plane). Input refuses them (shared/protocol/limits.ts `UNSAFE_TEXT`); a text stored before that rule
 * may still hold one, so the feed replaces each at output.
 */
// eslint-disable-next-line no-control-regex
const NOT_IN_FEED = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|\p{Noncharacter_Code_Point}/gu;

/** `text` with every character NOT_IN_FEED replaced by U+FFFD (the replacement character), so the feed stays well-formed. */
export function feedText(text: string): string {
  return text.replace(NOT_IN_FEED, '\uFFFD');
}

/** The feed with every text field passed through `feedText` (numbers as they are). */
function feedTexts(feed: TableFeed): TableFeed {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(feed)) out[k] = typeof v === 'string' ? feedText(v) : v;
  return out as unknown as TableFeed;
}

function rawFeed(table: TableState, match: FeedMatch | null, clock: FeedClock | null): TableFeed {
  const s = match?.state;
  const setup = match?.setup;
  const names = s?.names ?? ['', ''];
  const short = (i: 0 | 1) => setup?.shortNames?.[i] ?? names[i];
  const country = (i: 0 | 1) => setup?.countries?.[i] ?? '';
  const atTable = s && !s.winner ? s.turn : '';
  return {
    eventId: table.eventId,
    eventName: table.eventName,
    table: table.table,
    tableName: table.name,
    matchId: match ? (table.current ?? '') : '',
    discipline: s?.discipline ?? '',
    nameA: names[0],
    nameB: names[1],
    shortA: short(0),
    shortB: short(1),
    countryA: country(0),
    countryB: country(1),
    scoreA: s?.score[0] ?? 0,
    scoreB: s?.score[1] ?? 0,
    raceA: s?.targets[0] ?? 0,
    raceB: s?.targets[1] ?? 0,
    race: s && s.targets[0] === s.targets[1] ? s.targets[0] : '',
    atTable,
    atTableName: atTable === 'A' ? names[0] : atTable === 'B' ? names[1] : '',
    run: s?.run ?? 0,
    highRunA: s?.highRun[0] ?? 0,
    highRunB: s?.highRun[1] ?? 0,
    foulsA: s?.fouls[0] ?? 0,
    foulsB: s?.fouls[1] ?? 0,
    rack: s?.rack ?? 0,
    winner: s?.winner ?? '',
    winnerName: s?.winner === 'A' ? names[0] : s?.winner === 'B' ? names[1] : '',
    card: table.cards.show,
    nextA: table.nextPlayers?.[0] ?? '',
    nextB: table.nextPlayers?.[1] ?? '',
    version: match?.version ?? 0,
    ...clockFields(match ? clock : null),
  };
}

/** The feed's shot-clock fields of `clock` (null: the empty ones). */
function clockFields(clock: FeedClock | null): Pick<TableFeed, 'clockStatus' | 'clockSeconds' | 'clockWarning' | 'extensionsA' | 'extensionsB'> {
  if (!clock) return { clockStatus: '', clockSeconds: 0, clockWarning: '', extensionsA: 0, extensionsB: 0 };
  const seconds = shownSeconds(clock.view, clock.now);
  return {
    clockStatus: clock.view.status,
    clockSeconds: seconds,
    // Set for a break the clock has no allowance and does not run (D-32a): 0 s, but no warning.
    clockWarning: clock.view.kind === 'break' ? 'none' : warningLevel(clock.view, seconds),
    extensionsA: clock.view.extensionsLeft[0],
    extensionsB: clock.view.extensionsLeft[1],
  };
}

const builder = new XMLBuilder({ format: true, indentBy: '  ', suppressEmptyNode: false });

/**
 * The feed as XML for vMix's XML data source: `<cuecast><table>` with one child element per field, in the
 * feed's order (vMix: XPath `/cuecast/table`, each child a column); text escaped by fast-xml-parser's builder,
 * characters XML 1.0 forbids replaced (`feedText`), so the document is well-formed whatever is stored.
 */
export function feedXml(feed: TableFeed): string {
  // feedText again: the XML is well-formed whatever feed it is given, not only one tableFeed built.
  const fields = Object.fromEntries(Object.entries(feed).map(([k, v]) => [k, feedText(String(v))]));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ cuecast: { table: fields } }) as string}`;
}
