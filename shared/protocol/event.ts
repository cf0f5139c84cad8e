/**
 * Events and tables, typed once for the server, the pages' client and the tests (zod-free, so pages may
 * import it; the schemas that check the REST bodies and Socket.IO envelopes are server/protocol/event-schemas.ts).
 *
 * An event (a tournament day, a league night) has tables ("Table 1", "TV table"), a roster of players and
 * discipline defaults. Each table has a current match and, once the organiser assigns it, a next one; the
 * table-following pages (`/overlay/table/<eventId>/<table>`, `/watch/table/…`, `/dashboard/table/…`)
 * subscribe to the table and switch to its current match by themselves. Each table also carries the state
 * of its on-air cards (the match intro and the match summary) and whether the overlay's caption is hidden.
 */
import type { DrawMatchRef } from '../draw/labels';
import type { ApiError } from './errors';
import type { RotationOptions, StraightPoolOptions } from './setup';
import type { ShotClockSettingsBody } from './shot-clock';
import type { PROTOCOL_VERSION } from './version';
import type { Discipline, Pair, PlayerKey, Ruleset } from './vocabulary';

/** Limits of an event (the server refuses more, naming the field). */
export const EVENT_LIMITS = {
  /** Event name, characters. */
  name: 80,
  /** Tables per event. */
  tables: 32,
  /** Table name, characters. */
  tableName: 40,
  /** Players on the roster. */
  roster: 256,
  /** Matches an event keeps (current, next and finished, over all tables). */
  matches: 500,
} as const;

/**
 * Defaults of the overlays of an event, as overlay URL parameters (`/overlay/…?theme=light&accent=ff8800`):
 * every overlay of the event starts from them and its own URL parameters win. Colours are 6-digit hex
 * without `#`. See `presetSearch` (overlay/src/theme-preset.ts) for the merge.
 */
export interface ThemePreset {
  theme?: 'dark' | 'light';
  layout?: 'bar' | 'corner';
  /** Panel, text, accent, player A and player B colours. */
  bg?: string;
  fg?: string;
  accent?: string;
  a?: string;
  b?: string;
}

/** Discipline defaults of the matches created for the event's tables (any field may be overridden per match). */
export interface EventDefaults {
  discipline: Discipline;
  ruleset?: Ruleset;
  options?: Partial<StraightPoolOptions> | Partial<RotationOptions>;
  /** Race: points each player needs, A first. */
  targets?: Pair<number>;
  /**
   * The shot clock of every match made on the event's tables (`{preset: "pro" | "league" | "off"}` or
   * `{settings}`, as `PUT /api/matches/:id/clock` takes it); absent or `off`: no clock.
   */
  clock?: ShotClockSettingsBody;
}

/** A player of the event's roster; matches pick their players from it. */
export interface RosterPlayer {
  /** Assigned by the server (`p1`, `p2`, …), stable for the event. */
  id: string;
  /** Full name, 1–60 characters (the set-up's `NAME_MAX`). */
  name: string;
  /** Short display name for tight graphics, 1–16 characters (the set-up's `SHORT_NAME_MAX`). */
  short?: string;
  /** Country code for the flag (shared/countries.ts: ISO 3166-1 alpha-2, `XK`, `GB-ENG`…). */
  country?: string;
  /** A rating (Fargo, Elo, a league's), 0–100000; shown, never used by the rules. */
  rating?: number;
}

/** The two cards a table's overlay can show over the scorebug. */
export type CardKind = 'intro' | 'summary';

/**
 * On-air cards of a table: which card is shown and whether the scorebug's caption is hidden. The overlay
 * renders `show` for `matchId` (the table's current match); `seq` grows each time a card is (re)shown, so an
 * overlay can replay its entrance. With `auto` on, the server shows the intro when a match starts on the
 * table (it leaves again with the match's first recorded step) and the summary when the match is won.
 */
export interface CardsState {
  show: CardKind | 'none';
  /** The match the shown card is about (the table's current match), null with `show: 'none'`. */
  matchId: string | null;
  /** Who put the card up: the automatic start/end cards, or the organiser (a button, the page). */
  shownBy: 'auto' | 'organiser' | null;
  /** Grows at every show. */
  seq: number;
  /** The overlay's caption line is hidden (producer's choice; kept across matches). */
  captionHidden: boolean;
  /** Show the intro at match start and the summary at match end by themselves. Default on. */
  auto: boolean;
}

/** A table of the event. */
export interface EventTable {
  /** URL key, unique in the event: `table-1`, `tv-table` (from the name, or given); `[a-z0-9-]`, 1–32. */
  id: string;
  name: string;
  /** The match on the table now (the one its overlay shows), or null. */
  current: string | null;
  /** The match that goes on next, once assigned. */
  next: string | null;
  cards: CardsState;
  /**
   * The match the last *Start next match* took off the table (and when, ms since the epoch): within
   * START_UNDO_MS that start can be undone (this match back on the table, the started one next again).
   */
  replaced?: { matchId: string; at: number };
  /** When the table's stream or recording started (0:00 of its video, for `chapters.txt`); absent: not known. */
  streamStart?: StreamStart;
}

/** Where a stream start came from: OBS's streaming or recording (the table overlay), or the producer. */
export const STREAM_START_SOURCES = ['streaming', 'recording', 'producer'] as const;
export type StreamStartSource = (typeof STREAM_START_SOURCES)[number];

/** When a table's stream (or recording) started, as its overlay in OBS reported it or the producer set it. */
export interface StreamStart {
  /** ms since the epoch. */
  at: number;
  source: StreamStartSource;
  /** When it was reported (ms since the epoch). */
  setAt: number;
}

/** How long a *Start next match* can be undone (ms): 5 minutes. */
export const START_UNDO_MS = 5 * 60_000;

/** A match put on a table of the event (as next, then current), kept after it finished. */
export interface EventMatch {
  id: string;
  /** Table id. */
  table: string;
  /** Player names, A first (copied from the match's set-up when it was put on the table). */
  players: Pair<string>;
  /** Country codes, A first, when known. */
  countries?: Pair<string | null>;
  /** When it was put on the table (ms since the epoch). */
  addedAt: number;
  /** When it became the table's current match, null while it waits as next. */
  startedAt: number | null;
  /**
   * A match the event's draw made: its round and bracket place (shared/draw/labels.ts `drawMatchLabel` words it:
   * "Winners R2 · M5", "Losers' final", "Group B · R2"), for the intro card and the hall board.
   */
  draw?: DrawMatchRef;
  /**
   * True when the event made it (`POST /api/events/:id/tables/:table/matches`): such a match, taken off the
   * table before it started (replaced or cleared as next) with no step recorded, is removed from the store.
   */
  made?: true;
  /**
   * The organiser ended it in the draw while it was on its table (issue 27 §3): `result` — a result, walkover or
   * retirement recorded for it; `reset` — a correction of an earlier match put it back to waiting. It left its
   * table at once and can no longer be scored (a step is refused `match-over`, naming why); the draw holds its result.
   */
  closed?: { by: 'result' | 'reset'; at: number };
}

/** A match's live line on the organiser's page: the scorebug facts at one version. */
export interface LiveLine {
  matchId: string;
  version: number;
  discipline: Discipline;
  names: Pair<string>;
  score: Pair<number>;
  /** Race: points each player needs. */
  targets: Pair<number>;
  /** At the table (or to decide). */
  turn: PlayerKey;
  run: number;
  onTwoFouls: Pair<boolean>;
  rack: number;
  winner: PlayerKey | null;
}

/** The public event (no token): what `GET /api/events/<id>` answers and `subscribeEvent` acks and pushes. */
export interface EventInfo {
  id: string;
  name: string;
  /** Day of the event, `YYYY-MM-DD`. */
  date: string;
  defaults: EventDefaults;
  theme: ThemePreset;
  tables: EventTable[];
  roster: RosterPlayer[];
  /** Every match put on a table, oldest first. */
  matches: EventMatch[];
  /** Grows by one at every change (compare-and-set; `expectedVersion` of the organiser's requests). */
  version: number;
  createdAt: number;
  updatedAt: number;
  /** The sponsors' logos, in the order they are shown (absent: none yet). */
  sponsors?: SponsorInfo[];
  /**
   * Tables that have a table scorer token (a tablet following the table, issue 27 §4): table id → when the token
   * was issued (ms since the epoch). Never the token. Absent: none issued.
   */
  tablets?: Record<string, { issuedAt: number }>;
}

/** The image types a sponsor logo may have (decided by the file's content, not its name). */
export const SPONSOR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'] as const;
export type SponsorType = (typeof SPONSOR_TYPES)[number];

/** Limits of the sponsors of an event. */
export const SPONSOR_LIMITS = {
  /** Logos per event. */
  count: 20,
  /** Bytes per logo (512 KiB). */
  bytes: 512 * 1024,
  /** Seconds a logo stays on screen: at least, at most, and when not given. */
  minSeconds: 2,
  maxSeconds: 60,
  defaultSeconds: 8,
  /** Sponsor name, characters. */
  name: 60,
} as const;

/**
 * A sponsor's logo as the event lists it (the image itself is in the event store, served at
 * `GET /api/events/<eventId>/sponsors/<id>/image`). A new upload gets a new id, so the image at an id never changes.
 */
export interface SponsorInfo {
  /** `s` + random characters, unique in the event. */
  id: string;
  name: string;
  type: SponsorType;
  /** Size of the image, bytes. */
  size: number;
  /** Seconds on screen each time it is shown. */
  seconds: number;
}

/** The event with the live line of each of its matches (by match id; missing for an unknown match). */
export interface EventView extends EventInfo {
  live: Record<string, LiveLine>;
}

/** Row of `GET /api/events`. */
export interface EventListing {
  id: string;
  name: string;
  date: string;
  tables: number;
  updatedAt: number;
}

/**
 * What a table-following page needs: the table's current and next match, the event's name and theme
 * preset, and the cards. Acked by `subscribeTable`, pushed to the table's room as `table` whenever any of it
 * changes; `version` is the event's version (it grows, with gaps: other tables change it too).
 */
export interface TableState {
  eventId: string;
  eventName: string;
  /** Table id (the URL's `<table>`). */
  table: string;
  /** Table name, e.g. "TV table". */
  name: string;
  theme: ThemePreset;
  current: string | null;
  next: string | null;
  /** Names of the next match's players, A first, or null. */
  nextPlayers: Pair<string> | null;
  /** The current match's round and bracket place when the event's draw made it (`EventMatch.draw`); absent otherwise. */
  currentDraw?: DrawMatchRef;
  cards: CardsState;
  /** The event's sponsors, in order (the table screen and the table overlay show them). */
  sponsors: SponsorInfo[];
  version: number;
}

/** Socket.IO `subscribeTable`: join the table's room; the ack carries its state. */
export interface SubscribeTableRequest {
  /** The page's PROTOCOL_VERSION (version.ts); any other value is refused with `protocol-mismatch`. */
  protocol: typeof PROTOCOL_VERSION;
  eventId: string;
  /** Table id. */
  table: string;
}
export type SubscribeTableAck = ({ ok: true } & TableState) | { ok: false; error: ApiError };
/** Socket.IO `unsubscribeTable` (no ack). */
export interface UnsubscribeTableRequest {
  eventId: string;
  table: string;
}

/** Socket.IO `subscribeEvent`: join the event's room (the organiser's page); the ack carries the event. */
export interface SubscribeEventRequest {
  protocol: typeof PROTOCOL_VERSION;
  eventId: string;
}
export type SubscribeEventAck = { ok: true; event: EventView } | { ok: false; error: ApiError };
/** Socket.IO `unsubscribeEvent` (no ack). */
export interface UnsubscribeEventRequest {
  eventId: string;
}
/** Pushed to the event's room after every recorded step of one of its matches. */
export interface EventLivePush {
  eventId: string;
  line: LiveLine;
}

/** Actions of `POST /api/events/<id>/tables/<table>/cards/<action>` (a producer's button box). */
export const CARD_ACTIONS = [
  'intro',
  'summary',
  'hide',
  'toggle-intro',
  'toggle-summary',
  'caption-hide',
  'caption-show',
  'caption-toggle',
  'auto-on',
  'auto-off',
] as const;
export type CardAction = (typeof CARD_ACTIONS)[number];

/** Cards of a new table: nothing shown, caption on, automatic cards on. */
export function initialCards(): CardsState {
  return { show: 'none', matchId: null, shownBy: null, seq: 0, captionHidden: false, auto: true };
}

/** `cards` showing card `kind` of match `matchId`, put up by `by` (a new `seq`: the overlay plays it in). */
export function shownCards(cards: CardsState, kind: CardKind, matchId: string, by: 'auto' | 'organiser'): CardsState {
  return { ...cards, show: kind, matchId, shownBy: by, seq: cards.seq + 1 };
}

/** `cards` with no card shown. */
export function hiddenCards(cards: CardsState): CardsState {
  return { ...cards, show: 'none', matchId: null, shownBy: null };
}

/**
 * The cards after `action` on a table whose current match is `current` (pure). Showing a card needs a
 * current match (else the cards are unchanged: null is returned so the caller can refuse).
 */
export function applyCardAction(cards: CardsState, action: CardAction, current: string | null): CardsState | null {
  const show = (kind: CardKind): CardsState | null => (current === null ? null : shownCards(cards, kind, current, 'organiser'));
  const hide = hiddenCards(cards);
  switch (action) {
    case 'intro':
      return show('intro');
    case 'summary':
      return show('summary');
    case 'hide':
      return hide;
    case 'toggle-intro':
      return cards.show === 'intro' ? hide : show('intro');
    case 'toggle-summary':
      return cards.show === 'summary' ? hide : show('summary');
    case 'caption-hide':
      return { ...cards, captionHidden: true };
    case 'caption-show':
      return { ...cards, captionHidden: false };
    case 'caption-toggle':
      return { ...cards, captionHidden: !cards.captionHidden };
    case 'auto-on':
      return { ...cards, auto: true };
    case 'auto-off':
      return { ...cards, auto: false };
  }
}
