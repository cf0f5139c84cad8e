/**
 * Pure changes of an event document (no I/O, no clock: `now` is passed in): building a new event from a
 * checked body, roster and table edits, putting matches on tables, starting the next match, and the cards.
 * Each returns the changed copy or a Failure naming the field; the event service (server/events/service.ts) runs
 * them inside the event's serial queue and writes the result by compare-and-set.
 */
import type { z } from 'zod';
import { RulesError } from '../../shared/protocol/errors';
import {
  applyCardAction,
  hiddenCards,
  initialCards,
  shownCards,
  type CardAction,
  type CardsState,
  type EventDefaults,
  type EventInfo,
  type EventMatch,
  type EventTable,
  type StreamStart,
  type LiveLine,
  type RosterPlayer,
  type TableState,
} from '../../shared/protocol/event';
import type { eventCreateSchema, playerPatchSchema, playerSchema, tableInputSchema } from '../protocol/event-schemas';
import { EVENT_LIMITS, START_UNDO_MS } from '../../shared/protocol/event';
import type { DrawMatchRef } from '../../shared/draw/labels';
import type { MatchSetup } from '../../shared/protocol/setup';
import { parseSetup } from '../protocol/setup-schemas';
import { parseClockChoice } from '../protocol/shot-clock-schemas';
import type { ScorebugSnapshot } from '../../shared/protocol/wire';
import type { TournamentDoc } from '../storage/ports';
import { fail, type Failure } from '../failure';

export type Change = TournamentDoc | Failure;
/** A roster player as a checked body gives it (no id yet). */
export type PlayerInput = z.output<typeof playerSchema>;
type TableInput = z.output<typeof tableInputSchema>;

/** True when a change was refused. */
export function refused(c: Change): c is Failure {
  return 'ok' in c && c.ok === false;
}

/**
 * Check discipline defaults with the set-up parser (two placeholder players), so an option or target the
 * rules refuse is refused when the event is made, not at its first match; the shot clock's choice (`clock`) is
 * checked as `PUT /api/matches/:id/clock` checks it.
 * @throws RulesError `invalid-event` naming `defaults.<field>`.
 */
export function checkDefaults(defaults: EventDefaults): void {
  const { clock, ...discipline } = defaults;
  if (clock !== undefined) parseClockChoice(clock, 'defaults.clock', 'invalid-event');
  try {
    parseSetup({ ...discipline, players: ['A', 'B'] });
  } catch (err) {
    if (!(err instanceof RulesError)) throw err;
    const field = (err.field ?? 'setup').replace(/^setup/, 'defaults');
    throw new RulesError('invalid-event', err.message.replace(/^setup/, 'defaults'), field);
  }
}

/** A URL key from a table name: `TV table` → `tv-table`; '' when nothing Latin is left. */
function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 32)
    .replace(/-+$/, '');
}

/** Add `inputs` to `tables` (ids from the names unless given; names and ids unique). `at` names the input list's field. */
function addTables(tables: EventTable[], inputs: readonly TableInput[], at: (i: number) => string): EventTable[] | Failure {
  const out = [...tables];
  for (const [i, input] of inputs.entries()) {
    const { name, id: given } = typeof input === 'string' ? { name: input, id: undefined } : input;
    if (out.length >= EVENT_LIMITS.tables) return fail('invalid-event', `${at(i)}: at most ${EVENT_LIMITS.tables} tables`, at(i));
    const same = out.find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (same) return fail('invalid-event', `${at(i)}.name: "${name}" is already a table of this event`, `${at(i)}.name`);
    let id = given ?? slugOf(name);
    if (given !== undefined && out.some((t) => t.id === given))
      return fail('invalid-event', `${at(i)}.id: "${given}" is already the id of another table`, `${at(i)}.id`);
    for (let n = out.length + 1; id === '' || out.some((t) => t.id === id); n++) id = `table-${n}`;
    out.push({ id, name, current: null, next: null, cards: initialCards() });
  }
  return out;
}

/** How a player's name is compared for sameness: trimmed, Unicode-normalised, case-insensitive ("ann  " is "Ann"). */
export function playerNameKey(name: string): string {
  return name.trim().normalize('NFC').toLocaleLowerCase('en');
}

/** Add players to the roster with the next ids (`p<n>`); a name already on it (or given twice) is refused naming `<at(i)>.name`. */
function addPlayers(doc: TournamentDoc, inputs: readonly PlayerInput[], at: (i: number) => string): TournamentDoc | Failure {
  if (doc.roster.length + inputs.length > EVENT_LIMITS.roster) {
    return fail('invalid-event', `${at(inputs.length - 1)}: the roster holds at most ${EVENT_LIMITS.roster} players`, at(inputs.length - 1));
  }
  const names = new Map(doc.roster.map((p) => [playerNameKey(p.name), `already on the roster (${p.id})`]));
  for (const [i, p] of inputs.entries()) {
    const seen = names.get(playerNameKey(p.name));
    if (seen) return fail('invalid-event', `${at(i)}.name: "${p.name}" is ${seen}; each player's name is different`, `${at(i)}.name`);
    names.set(playerNameKey(p.name), `given twice (also ${at(i)})`);
  }
  const roster = [...doc.roster];
  let next = doc.nextPlayer;
  for (const p of inputs) roster.push({ id: `p${next++}`, ...p });
  return { ...doc, roster, nextPlayer: next };
}

/** A new event document at version 0 from a checked body. */
export function newEventDoc(id: string, tokenHash: string, body: z.output<typeof eventCreateSchema>, now: number): Change {
  if (body.defaults) checkDefaults(body.defaults);
  const tables = addTables([], body.tables, (i) => `tables.${i}`);
  if ('ok' in tables) return tables;
  const doc: TournamentDoc = {
    id,
    name: body.name,
    date: body.date,
    defaults: body.defaults ?? { discipline: '14-1' },
    theme: body.theme ?? {},
    tables,
    roster: [],
    matches: [],
    version: 0,
    createdAt: now,
    updatedAt: now,
    tokenHash,
    nextPlayer: 1,
  };
  return addPlayers(doc, body.roster ?? [], (i) => `roster.${i}`);
}

/** Roster: add players (names not on the roster yet, each once; else `invalid-event` naming `players.<i>.name`). */
export function withPlayers(doc: TournamentDoc, players: readonly PlayerInput[]): Change {
  return addPlayers(doc, players, (i) => `players.${i}`);
}

/** Roster: change one player (null clears `short`, `country`, `rating`); another player's name is refused naming `name`. */
export function withPlayerPatch(doc: TournamentDoc, playerId: string, patch: Omit<z.output<typeof playerPatchSchema>, 'expectedVersion'>): Change {
  const i = doc.roster.findIndex((p) => p.id === playerId);
  if (i < 0) return fail('not-found', `playerId: no player "${playerId}" on the roster`, 'playerId');
  const p: RosterPlayer = { ...doc.roster[i]! };
  if (patch.name !== undefined) {
    const same = doc.roster.find((o) => o.id !== playerId && playerNameKey(o.name) === playerNameKey(patch.name!));
    if (same) return fail('invalid-event', `name: "${patch.name}" is already on the roster (${same.id}); each player's name is different`, 'name');
    p.name = patch.name;
  }
  if (patch.short === null) delete p.short;
  else if (patch.short !== undefined) p.short = patch.short;
  if (patch.country === null) delete p.country;
  else if (patch.country !== undefined) p.country = patch.country;
  if (patch.rating === null) delete p.rating;
  else if (patch.rating !== undefined) p.rating = patch.rating;
  const roster = [...doc.roster];
  roster[i] = p;
  return { ...doc, roster };
}

/**
 * Roster import (issue 27 §6): the players whose names are not on the roster yet are added; the others are left
 * out (a file imported twice adds nobody twice). @returns the change and how many were left out.
 */
export function withImported(doc: TournamentDoc, players: readonly PlayerInput[]): { change: Change; skipped: number } {
  const have = new Set(doc.roster.map((p) => playerNameKey(p.name)));
  const fresh = players.filter((p) => !have.has(playerNameKey(p.name)));
  const skipped = players.length - fresh.length;
  return { change: fresh.length === 0 ? doc : addPlayers(doc, fresh, (i) => `players.${i}`), skipped };
}

/** Roster: remove a player (matches already made keep their names). */
export function withoutPlayer(doc: TournamentDoc, playerId: string): Change {
  if (!doc.roster.some((p) => p.id === playerId)) return fail('not-found', `playerId: no player "${playerId}" on the roster`, 'playerId');
  return { ...doc, roster: doc.roster.filter((p) => p.id !== playerId) };
}

/** Add one table. */
export function withTable(doc: TournamentDoc, input: TableInput): Change {
  const tables = addTables(doc.tables, [input], () => 'table');
  return 'ok' in tables ? tables : { ...doc, tables };
}

/** The table `tableId` and its index, or a `not-found` Failure. */
export function findTable(doc: EventInfo, tableId: string): { table: EventTable; index: number } | Failure {
  const index = doc.tables.findIndex((t) => t.id === tableId);
  if (index < 0) return fail('not-found', `table: event "${doc.id}" has no table "${tableId}" (tables: ${doc.tables.map((t) => t.id).join(', ')})`, 'table');
  return { table: doc.tables[index]!, index };
}

/** `doc` with table `index` replaced by `table`. */
function withTableAt(doc: TournamentDoc, index: number, table: EventTable): TournamentDoc {
  const tables = [...doc.tables];
  tables[index] = table;
  return { ...doc, tables };
}

/**
 * Cards of a table whose current match just changed to `current`: when automatic, the intro — or the summary
 * when the match is already `won` (an intro would stay up for good: only a recorded step takes it down); else none.
 */
function cardsForNewMatch(cards: CardsState, current: string | null, won: boolean): CardsState {
  if (cards.auto && current !== null) return shownCards(cards, won ? 'summary' : 'intro', current, 'auto');
  return hiddenCards(cards);
}

/** `doc` without match `id` when it never started (a next match that was replaced or cleared). */
function withoutUnstarted(doc: TournamentDoc, id: string): TournamentDoc {
  return { ...doc, matches: doc.matches.filter((m) => m.id !== id || m.startedAt !== null) };
}

/**
 * The matches the event made that left it between `before` and `after` without having started (a next match
 * replaced or cleared): the event service removes each from the match store unless a step was recorded for it.
 */
export function unusedMatches(before: TournamentDoc, after: TournamentDoc): string[] {
  const still = new Set(after.matches.map((m) => m.id));
  return before.matches.filter((m) => m.made === true && m.startedAt === null && !still.has(m.id)).map((m) => m.id);
}

/** `doc` with match `entry` listed (replacing an entry with its id) and linked. */
function withListed(doc: TournamentDoc, entry: EventMatch): TournamentDoc {
  const matches = doc.matches.filter((m) => m.id !== entry.id);
  return { ...doc, matches: [...matches, entry] };
}

/**
 * Put match `match.id` (its set-up's players and countries) on table `tableId`: as its next match, or with
 * `start` as its current match right away (the previous current match leaves the table; `match.won`: it is
 * already won, so the automatic card is its summary). A match already current or next on a table is refused
 * (`match-on-table`); a replaced next match that never started is dropped from the event. `match.made`: the
 * event made it (listed with `made`, see `unusedMatches`).
 */
export function withMatchOnTable(
  doc: TournamentDoc,
  tableId: string,
  match: { id: string; setup: MatchSetup; won?: boolean; made?: boolean; draw?: DrawMatchRef },
  start: boolean,
  now: number,
): Change {
  const found = findTable(doc, tableId);
  if ('ok' in found) return found;
  const busy = doc.tables.find((t) => t.current === match.id || t.next === match.id);
  if (busy) {
    const slot = busy.current === match.id ? 'current' : 'next';
    return fail('match-on-table', `matchId: match "${match.id}" is already the ${slot} match of ${busy.name}`, 'matchId');
  }
  if (!doc.matches.some((m) => m.id === match.id) && doc.matches.length >= EVENT_LIMITS.matches) {
    return fail('invalid-event', `matchId: an event keeps at most ${EVENT_LIMITS.matches} matches`, 'matchId');
  }
  const { table, index } = found;
  const entry: EventMatch = { id: match.id, table: table.id, players: match.setup.players, addedAt: now, startedAt: start ? now : null };
  if (match.setup.countries) entry.countries = match.setup.countries;
  if (match.made) entry.made = true;
  if (match.draw) entry.draw = match.draw;
  const listed = withListed(doc, entry);
  if (start)
    return withTableAt(listed, index, { ...withoutReplaced(table), current: match.id, cards: cardsForNewMatch(table.cards, match.id, match.won === true) });
  const out = table.next === null ? listed : withoutUnstarted(listed, table.next);
  return withTableAt(out, index, { ...table, next: match.id });
}

/**
 * Start table `tableId`'s next match: it becomes the current match (`no-next-match` when none is assigned);
 * `won`: the ids of matches known to be won (the automatic card of such a match is its summary).
 */
export function withNextStarted(doc: TournamentDoc, tableId: string, now: number, won: ReadonlySet<string> = new Set()): Change {
  const found = findTable(doc, tableId);
  if ('ok' in found) return found;
  const { table, index } = found;
  if (table.next === null) return fail('no-next-match', `table: ${table.name} has no next match to start; assign one first`, 'table');
  const matches = doc.matches.map((m) => (m.id === table.next ? { ...m, startedAt: now } : m));
  const started: EventTable = {
    ...withoutReplaced(table),
    current: table.next,
    next: null,
    cards: cardsForNewMatch(table.cards, table.next, won.has(table.next)),
  };
  if (table.current !== null) started.replaced = { matchId: table.current, at: now };
  return withTableAt({ ...doc, matches }, index, started);
}

/** `table` without its undoable start. */
function withoutReplaced(table: EventTable): EventTable {
  const { replaced: _replaced, ...rest } = table;
  return rest;
}

/**
 * Undo table `tableId`'s last *Start next match* within START_UNDO_MS of it: the match it took off the table
 * is current again and the started match is the next match again (not started; steps it recorded stay in its
 * log). Refused (`nothing-to-undo`, field `table`) without such a start, after the window, when a next match
 * was assigned since, or when the match taken off is now on another table.
 */
export function withStartUndone(doc: TournamentDoc, tableId: string, now: number): Change {
  const found = findTable(doc, tableId);
  if ('ok' in found) return found;
  const { table, index } = found;
  const r = table.replaced;
  if (!r || table.current === null) return fail('nothing-to-undo', `table: ${table.name} has no Start next match to undo`, 'table');
  if (now - r.at > START_UNDO_MS)
    return fail('nothing-to-undo', `table: the start on ${table.name} is more than ${START_UNDO_MS / 60_000} minutes old; it can no longer be undone`, 'table');
  if (table.next !== null) return fail('nothing-to-undo', `table: a next match was assigned to ${table.name} since the start; clear it first`, 'table');
  const elsewhere = doc.tables.find((t) => t.id !== table.id && (t.current === r.matchId || t.next === r.matchId));
  if (elsewhere) return fail('match-on-table', `table: match "${r.matchId}" is on ${elsewhere.name} now`, 'table');
  const started = table.current;
  const matches = doc.matches.map((m) => (m.id === started ? { ...m, startedAt: null } : m));
  return withTableAt({ ...doc, matches }, index, { ...withoutReplaced(table), current: r.matchId, next: started, cards: hiddenCards(table.cards) });
}

/**
 * Swap the current matches of tables `a` and `b` (the draw's autopilot override, issue 27 §4): each match goes on
 * the other table (its listing's `table` follows), each table's automatic card shows its new match (`won`: the
 * ids of matches known to be won get their summary). Next matches stay with their tables. Refused: an unknown
 * table (`not-found` naming `tables.0` / `tables.1`), the same table twice (`invalid-request` naming `tables.1`).
 */
export function withTablesSwapped(doc: TournamentDoc, a: string, b: string, won: ReadonlySet<string> = new Set()): Change {
  const ia = doc.tables.findIndex((t) => t.id === a);
  const ib = doc.tables.findIndex((t) => t.id === b);
  const names = doc.tables.map((t) => t.id).join(', ');
  if (ia < 0) return fail('not-found', `tables.0: event "${doc.id}" has no table "${a}" (tables: ${names})`, 'tables.0');
  if (ib < 0) return fail('not-found', `tables.1: event "${doc.id}" has no table "${b}" (tables: ${names})`, 'tables.1');
  if (ia === ib) return fail('invalid-request', `tables.1: name two different tables to swap (both are "${a}")`, 'tables.1');
  const ta = doc.tables[ia]!;
  const tb = doc.tables[ib]!;
  const moved = new Map<string, string>();
  if (ta.current) moved.set(ta.current, tb.id);
  if (tb.current) moved.set(tb.current, ta.id);
  const matches = doc.matches.map((m) => (moved.has(m.id) && m.startedAt !== null ? { ...m, table: moved.get(m.id)! } : m));
  const onto = (t: EventTable, current: string | null): EventTable => ({
    ...withoutReplaced(t),
    current,
    cards: cardsForNewMatch(t.cards, current, current !== null && won.has(current)),
  });
  const tables = [...doc.tables];
  tables[ia] = onto(ta, tb.current);
  tables[ib] = onto(tb, ta.current);
  return { ...doc, matches, tables };
}

/**
 * Take match `matchId` off table `tableId`, where it is the current match (an assignment undone, issue 27 §4):
 * the table has no current match and the match leaves the event's list (the caller removes it from the store when
 * no step was recorded). Refused: an unknown table (`not-found` naming `table`), another current match
 * (`no-current-match` naming `table`).
 */
export function withCurrentTakenOff(doc: TournamentDoc, tableId: string, matchId: string): Change {
  const found = findTable(doc, tableId);
  if ('ok' in found) return found;
  const { table, index } = found;
  if (table.current !== matchId) return fail('no-current-match', `table: match "${matchId}" is not the current match of ${table.name}`, 'table');
  const out = { ...doc, matches: doc.matches.filter((m) => m.id !== matchId) };
  return withTableAt(out, index, { ...withoutReplaced(table), current: null, cards: hiddenCards(table.cards) });
}

/**
 * Close match `matchId` (issue 27 §3: the organiser decided it in the draw, or a correction reset it): it leaves
 * the table it is current or next on (that table is free at once; its cards are hidden) and stays listed with
 * `closed`, so the results keep it and no scorer token can record for it any more. A match the event does not
 * list, or one already closed, changes nothing.
 */
export function withMatchClosed(doc: TournamentDoc, matchId: string, by: 'result' | 'reset', now: number): TournamentDoc {
  const listed = doc.matches.find((m) => m.id === matchId);
  if (!listed || listed.closed) return doc;
  const matches = doc.matches.map((m) => (m.id === matchId ? { ...m, closed: { by, at: now } } : m));
  const tables = doc.tables.map((t) =>
    t.current === matchId ? { ...withoutReplaced(t), current: null, cards: hiddenCards(t.cards) } : t.next === matchId ? { ...t, next: null } : t,
  );
  return { ...doc, matches, tables };
}

/** Clear table `tableId`'s next match (it leaves the event: it never started). */
export function withoutNext(doc: TournamentDoc, tableId: string): Change {
  const found = findTable(doc, tableId);
  if ('ok' in found) return found;
  const { table, index } = found;
  if (table.next === null) return doc;
  return withTableAt(withoutUnstarted(doc, table.next), index, { ...table, next: null });
}

/** A producer's card action on table `tableId` (showing a card needs a current match). */
export function withCardAction(doc: TournamentDoc, tableId: string, action: CardAction): Change {
  const found = findTable(doc, tableId);
  if ('ok' in found) return found;
  const { table, index } = found;
  const cards = applyCardAction(table.cards, action, table.current);
  if (!cards) return fail('no-current-match', `table: ${table.name} has no current match to show a card for`, 'table');
  return withTableAt(doc, index, { ...table, cards });
}

/**
 * The automatic cards after a recorded step of match `matchId` (current on some table): the summary when
 * the step won the match, the automatic summary hidden again when an undo took the win back, the
 * automatic intro hidden by the match's first steps. Null when nothing changes.
 */
export function autoCards(doc: TournamentDoc, matchId: string, won: boolean, undo: boolean): TournamentDoc | null {
  const index = doc.tables.findIndex((t) => t.current === matchId);
  if (index < 0) return null;
  const table = doc.tables[index]!;
  const c = table.cards;
  let cards: CardsState | null = null;
  if (won && !undo && c.auto && c.show !== 'summary') cards = shownCards(c, 'summary', matchId, 'auto');
  else if (!won && undo && c.show === 'summary' && c.shownBy === 'auto') cards = hiddenCards(c);
  else if (!won && c.show === 'intro' && c.shownBy === 'auto') cards = hiddenCards(c);
  return cards ? withTableAt(doc, index, { ...table, cards }) : null;
}

/** The public part of a document (no token hash, no id counter). */
export function publicInfo(doc: TournamentDoc): EventInfo {
  const { tokenHash: _hash, nextPlayer: _next, tablets, ...info } = doc;
  if (!tablets || Object.keys(tablets).length === 0) return info;
  // Which tables have a tablet token, and since when: never the hash.
  return { ...info, tablets: Object.fromEntries(Object.entries(tablets).map(([t, v]) => [t, { issuedAt: v.issuedAt }])) };
}

/** What the pages following table `table` of `doc` need. */
export function tableStateOf(doc: EventInfo, table: EventTable): TableState {
  const next = table.next === null ? undefined : doc.matches.find((m) => m.id === table.next);
  const drawn = table.current === null ? undefined : doc.matches.find((m) => m.id === table.current)?.draw;
  return {
    eventId: doc.id,
    eventName: doc.name,
    table: table.id,
    name: table.name,
    theme: doc.theme,
    current: table.current,
    next: table.next,
    nextPlayers: next ? next.players : null,
    cards: table.cards,
    sponsors: doc.sponsors ?? [],
    version: doc.version,
    ...(drawn ? { currentDraw: drawn } : {}),
  };
}

/** The organiser page's live line of a match at a snapshot. */
export function liveLineOf(s: ScorebugSnapshot): LiveLine {
  const st = s.state;
  return {
    matchId: s.matchId,
    version: s.version,
    discipline: st.discipline,
    names: st.names,
    score: st.score,
    targets: st.targets,
    turn: st.turn,
    run: st.run,
    onTwoFouls: st.onTwoFouls,
    rack: st.rack,
    winner: st.winner,
  };
}

/** How far ahead of the server's clock a reported stream start may be (a device's clock a little fast), ms. */
export const STREAM_START_SKEW_MS = 5_000;

/**
 * `doc` with table `tableId`'s stream start set to `start` (`now`: the server's time). Refused, nothing changed:
 * `not-found` (table); `invalid-request` naming `at` when it is in the future (beyond {@link STREAM_START_SKEW_MS})
 * or before the event was created (a stream of this event cannot have started before the event existed; a
 * wrong date or time zone).
 */
export function withStreamStart(doc: TournamentDoc, tableId: string, start: StreamStart, now: number): Change {
  const found = findTable(doc, tableId);
  if ('ok' in found) return found;
  const iso = (ms: number) => new Date(ms).toISOString();
  if (start.at > now + STREAM_START_SKEW_MS) return fail('invalid-request', `at: ${iso(start.at)} is in the future (server time ${iso(now)})`, 'at');
  if (start.at < doc.createdAt)
    return fail('invalid-request', `at: ${iso(start.at)} is before the event was created (${iso(doc.createdAt)}); check the date and time zone`, 'at');
  return withTableAt(doc, found.index, { ...found.table, streamStart: start });
}
