/**
 * The event service: events with tables and a roster, the matches on each table, and the on-air cards.
 * Every change of an event runs in the event's serial queue (the keyed cache) and is written by
 * compare-and-set on its version; when another instance wrote first the change is re-applied to the fresh
 * document (or answered `stale` when the caller named a version). After each change it pushes the event to
 * its room (`event`) and each changed table's state to the table's room (`table`). It also hears every
 * recorded step (from the match service): the step's live line goes to the event's room, and with automatic
 * cards on, a won match puts its summary up and a first step takes the automatic intro down.
 */
import type { Logger } from 'pino';
import type { z } from 'zod';
import { RulesError } from '../../shared/protocol/errors';
import { SAFE_ID } from '../../shared/protocol/limits';
import type { CardAction, EventListing, EventLivePush, EventMatch, EventView, LiveLine, TableState } from '../../shared/protocol/event';
import { eventCreateSchema, parseEventBody, type tableMatchSchema } from '../protocol/event-schemas';
import type { StatePush } from '../../shared/protocol/wire';
import {
  autoCards,
  findTable,
  liveLineOf,
  newEventDoc,
  publicInfo,
  refused,
  tableStateOf,
  withCardAction,
  unusedMatches,
  withMatchOnTable,
  withNextStarted,
  withStartUndone,
  withCurrentTakenOff,
  withMatchClosed,
  withoutPlayer,
  withImported,
  withTablesSwapped,
  type PlayerInput,
  type Change,
} from './event-docs';
import { tableMatchClock, tableMatchSetup } from './event-setup';
import type { DrawMatchRef } from '../../shared/draw/labels';
import type { ShotClockService } from '../shot-clock/service';
import { fail, type Failure } from '../failure';
import { storeErrorOf } from '../storage/store-errors';
import { systemClock, type Clock } from '../clock';
import { KeyedCache } from '../matches/keyed-cache';
import type { MatchService } from '../matches/service';
import { linkChange, type TournamentDoc, type TournamentStore, type SponsorImage, type SponsorStore } from '../storage/ports';
import { withoutSponsor, withSponsor } from './sponsors';
import type { SponsorInfo } from '../../shared/protocol/event';
import type { Pair } from '../../shared/protocol/vocabulary';
import { hashToken, newEventId, newMatchId, newOrganiserToken, newTableToken, tableTokenParts, tokenMatches } from '../tokens';

/** Where the service's pushes go (the Socket.IO rooms, across instances). */
export interface EventPushes {
  table(state: TableState): void;
  event(view: EventView): void;
  live(push: EventLivePush): void;
  /**
   * A match became a table's current match (it started), once per start, after the change is stored
   * (the webhooks' `match.started`). Optional: a wiring without webhooks leaves it out.
   */
  matchStarted?(started: MatchStarted): void;
}

/** A match that went on a table as its current match. */
export interface MatchStarted {
  eventId: string;
  table: string;
  tableName: string;
  matchId: string;
  /** Player names, A first. */
  players: Pair<string>;
}

export interface EventServiceOptions {
  store: TournamentStore;
  /** The sponsors' logos (the event's document lists them). */
  sponsors: SponsorStore;
  matches: MatchService;
  log: Logger;
  pushes: EventPushes;
  /** True when other instances may write the same store (Redis): reads go to the store. */
  shared: boolean;
  /** Event timestamps, match start times and how long a match's links are believed (default the wall clock). */
  clock?: Clock;
  /** Turns on the shot clock of a match made on a table when the event's defaults name one. */
  shotClocks?: Pick<ShotClockService, 'applyNew'>;
  /** The roster ids of the event's draw (none without one): they cannot leave the roster (`removePlayer`). */
  drawPlayers?: (eventId: string) => Promise<readonly string[]>;
}

/** A change that went through: the event after it. */
export type Changed = { ok: true; event: TournamentDoc };

const MAX_ATTEMPTS = 5;
/** How long the events of a match are believed before the store is asked again (ms). */
const LINKS_TTL_MS = 1000;

export class EventService {
  private readonly store: TournamentStore;
  private readonly sponsors: SponsorStore;
  private readonly matches: MatchService;
  private readonly log: Logger;
  private readonly pushes: EventPushes;
  private readonly shared: boolean;
  private readonly clock: Clock;
  private readonly shotClocks: Pick<ShotClockService, 'applyNew'> | null;
  private readonly drawPlayers: EventServiceOptions['drawPlayers'];
  private readonly docs: KeyedCache<TournamentDoc>;
  /** Match id → the events it may be on, as of `at` (this instance's own changes noted at once). */
  private readonly links = new Map<string, { events: readonly string[]; at: number }>();
  /**
   * Match id → whether an event closed it, as of `at` (believed for LINKS_TTL_MS, so a step does not read the
   * event's document from a shared store each time; this instance's own closings are seen at once).
   */
  private readonly closedSeen = new Map<string, { failure: Failure | null; at: number }>();

  constructor(opts: EventServiceOptions) {
    this.store = opts.store;
    this.sponsors = opts.sponsors;
    this.matches = opts.matches;
    this.log = opts.log;
    this.pushes = opts.pushes;
    this.shared = opts.shared;
    this.clock = opts.clock ?? systemClock;
    this.shotClocks = opts.shotClocks ?? null;
    this.drawPlayers = opts.drawPlayers;
    this.docs = new KeyedCache((id) => this.store.loadTournament(id), this.clock);
  }

  /**
   * Create an event from an untrusted body (`POST /api/events`).
   * @returns the event and its organiser token (shown once; only its hash is stored).
   * @throws RulesError `invalid-event` naming the field.
   */
  async create(body: unknown): Promise<{ event: EventView; organiserToken: string }> {
    const parsed = parseEventBody(eventCreateSchema, body);
    const organiserToken = newOrganiserToken();
    const doc = newEventDoc(newEventId(), hashToken(organiserToken), parsed, this.clock.now());
    if (refused(doc)) throw new RulesError(doc.error.code, doc.error.message, doc.error.field);
    await this.store.createTournament(doc);
    this.docs.set(doc.id, doc);
    this.log.info({ eventId: doc.id, tables: doc.tables.length }, 'event created');
    return { event: await this.viewOf(doc), organiserToken };
  }

  /** The latest events, newest first. */
  list(limit = 100): Promise<EventListing[]> {
    return this.store.listTournaments(limit);
  }

  /** The event with the live line of each of its matches, or null when unknown. */
  async view(id: string): Promise<EventView | null> {
    const doc = await this.read(id);
    return doc && this.viewOf(doc);
  }

  /** The state of table `tableId` of event `id`, or `not-found` naming `eventId` or `table`. */
  async table(id: string, tableId: string): Promise<TableState | Failure> {
    const doc = await this.read(id);
    if (!doc) return eventNotFound(id);
    const found = findTable(doc, tableId);
    return 'ok' in found ? found : tableStateOf(doc, found.table);
  }

  /** Whether `token` is the event's organiser token; null when the event is unknown. */
  async tokenValid(id: string, token: string): Promise<boolean | null> {
    const doc = await this.read(id);
    return doc && tokenMatches(token, doc.tokenHash);
  }

  /**
   * The match on table `tableId` now, for the holder of the organiser `token` (a button box's clock keys).
   * Refusals: `not-found` (eventId, table), `unauthorized` / `forbidden` (token), `no-current-match`.
   */
  async currentMatchFor(id: string, token: string | undefined, tableId: string): Promise<{ ok: true; matchId: string } | Failure> {
    const doc = await this.organisers(id, token);
    if (!doc.ok) return doc;
    const found = findTable(doc.doc, tableId);
    if ('ok' in found) return found;
    if (!found.table.current) return fail('no-current-match', `table: ${found.table.name} has no current match`, 'table');
    return { ok: true, matchId: found.table.current };
  }

  /**
   * Change event `id` on behalf of the holder of `token` with `fn` (a pure change of the document).
   * Refusals: `not-found` (eventId), `unauthorized` / `forbidden` (token), `stale` with `currentVersion`
   * when `expected` is not the event's version, and `fn`'s own; `internal` when the store is unavailable.
   */
  async change(id: string, token: string | undefined, expected: number | undefined, fn: (doc: TournamentDoc) => Change): Promise<Changed | Failure> {
    const doc = await this.organisers(id, token);
    return doc.ok ? this.commit(id, expected, fn) : doc;
  }

  /**
   * Import roster players (`POST /api/events/<id>/players/import`, already parsed from the CSV): those whose names
   * are on the roster already (trimmed, case-insensitive) are skipped, so a file imported twice adds nobody twice.
   * @returns the event, how many were imported and how many skipped. Refusals: `not-found` (eventId),
   * `unauthorized` / `forbidden` (token), `stale`, `invalid-event` (the roster would be over its limit).
   */
  async importPlayers(
    id: string,
    token: string | undefined,
    players: readonly PlayerInput[],
    expected?: number,
  ): Promise<(Changed & { imported: number; skipped: number }) | Failure> {
    let skipped = 0;
    const res = await this.change(id, token, expected, (d) => {
      const r = withImported(d, players);
      skipped = r.skipped;
      return r.change;
    });
    return res.ok ? { ...res, imported: players.length - skipped, skipped } : res;
  }

  /**
   * Remove roster player `playerId` (`DELETE /api/events/<id>/players/<playerId>`; matches already made keep their
   * names). Refusals: `not-found` (eventId, playerId), `unauthorized` / `forbidden` (token), `stale`, and
   * `player-in-draw` naming `playerId` for a player of the event's draw (the draw would show a bare id).
   */
  async removePlayer(id: string, token: string | undefined, playerId: string, expected?: number): Promise<Changed | Failure> {
    const authorised = await this.organisers(id, token);
    if (!authorised.ok) return authorised;
    const player = authorised.doc.roster.find((p) => p.id === playerId);
    if (player && (await this.drawPlayers?.(id))?.includes(playerId))
      return fail(
        'player-in-draw',
        `playerId: ${player.name} (${playerId}) is a player of this event's draw and cannot leave the roster; replace the draw without them first (POST …/draw with cancel: true), or keep them and record walkovers`,
        'playerId',
      );
    return this.commit(id, expected, (d) => withoutPlayer(d, playerId));
  }

  /** Event `id` for the holder of its organiser `token`; refusals `not-found` (eventId), `unauthorized` / `forbidden` (token). */
  private async organisers(id: string, token: string | undefined): Promise<{ ok: true; doc: TournamentDoc } | Failure> {
    const doc = await this.read(id);
    if (!doc) return eventNotFound(id);
    return authFailure(doc, token) ?? { ok: true, doc };
  }

  /**
   * Make a match for table `tableId` (`POST /api/events/<id>/tables/<table>/matches`): set-up from the
   * event's defaults, the body's overrides and the roster, and its shot clock from the defaults' `clock`; then put
   * it on the table (next, or current with `start`).
   * @throws RulesError `invalid-event` / `invalid-setup` naming the field.
   */
  async createTableMatch(
    id: string,
    token: string | undefined,
    tableId: string,
    body: z.output<typeof tableMatchSchema>,
  ): Promise<{ ok: true; event: TournamentDoc; match: { id: string; scorerToken: string } } | Failure> {
    const authorised = await this.organisers(id, token);
    if (!authorised.ok) return authorised;
    return this.makeTableMatch(authorised.doc, tableId, body);
  }

  /**
   * Make and start a match of the event's draw on table `tableId` (the draw service's autopilot, which checked
   * the organiser when it was turned on): players from the roster, the race `target` for both, the rest from
   * the event's defaults; it becomes the table's current match, so the table's pages follow it.
   * Refusals: `not-found` (eventId, table), and the set-up's own (`invalid-event` / `invalid-setup`, thrown).
   */
  async startDrawMatch(
    id: string,
    tableId: string,
    playerIds: [string, string],
    target: number,
    draw?: DrawMatchRef,
  ): Promise<{ ok: true; event: TournamentDoc; match: { id: string; scorerToken: string } } | Failure> {
    const doc = await this.read(id);
    if (!doc) return eventNotFound(id);
    return this.makeTableMatch(doc, tableId, { playerIds, setup: { targets: [target, target] }, start: true }, draw);
  }

  /**
   * Issue table `tableId`'s scorer token (issue 27 §4) for the holder of the organiser `token`: the tablet at the
   * table scores whatever match is the table's current one with it. A new token replaces the table's old one
   * (which stops working at once). Only its hash is stored, in the event's document (every backend).
   * @returns the token (shown once). Refusals: `not-found` (eventId, table), `unauthorized` / `forbidden` (token).
   */
  async issueTableToken(id: string, token: string | undefined, tableId: string): Promise<{ ok: true; event: TournamentDoc; scorerToken: string } | Failure> {
    const scorerToken = newTableToken(id, tableId);
    const res = await this.change(id, token, undefined, (d) => {
      const found = findTable(d, tableId);
      if ('ok' in found) return found;
      return { ...d, tablets: { ...d.tablets, [tableId]: { hash: hashToken(scorerToken), issuedAt: this.clock.now() } } };
    });
    if (!res.ok) return res;
    this.log.info({ eventId: id, table: tableId }, 'table scorer token issued');
    return { ok: true, event: res.event, scorerToken };
  }

  /**
   * Revoke table `tableId`'s scorer token: the tablet can no longer record (nothing when none was issued).
   * Refusals: `not-found` (eventId, table), `unauthorized` / `forbidden` (token).
   */
  async revokeTableToken(id: string, token: string | undefined, tableId: string): Promise<Changed | Failure> {
    const res = await this.change(id, token, undefined, (d) => {
      const found = findTable(d, tableId);
      if ('ok' in found) return found;
      if (!d.tablets?.[tableId]) return d;
      const { [tableId]: _gone, ...rest } = d.tablets;
      return { ...d, tablets: rest };
    });
    if (res.ok) this.log.info({ eventId: id, table: tableId }, 'table scorer token revoked');
    return res;
  }

  /**
   * Whether `token`, a table scorer token, may score match `matchId`: null when `token` is not shaped like a table
   * token (the caller's own refusal stands); `ok` when it is the live token of a table whose current match is
   * `matchId`; else the refusal: `forbidden` naming `token` (unknown event or table, revoked or replaced) or
   * `not-current-match` naming `matchId` (the table's current match is another one, or none).
   */
  async tableScorerCheck(matchId: string, token: unknown): Promise<'ok' | Failure | null> {
    const parts = tableTokenParts(token);
    if (!parts) return null;
    const doc = await this.read(parts.eventId);
    const tablet = doc?.tablets?.[parts.table];
    if (!doc || !tablet || !tokenMatches(token, tablet.hash))
      return fail('forbidden', `token: this table scorer token of ${parts.table} was revoked or replaced; scan the table's new QR code`, 'token');
    const table = doc.tables.find((t) => t.id === parts.table);
    if (!table) return fail('forbidden', `token: event "${doc.id}" has no table "${parts.table}" any more`, 'token');
    const closed = doc.matches.find((m) => m.id === matchId && m.closed);
    if (closed) return closedFailure(closed);
    if (table.current !== matchId)
      return fail(
        'not-current-match',
        table.current
          ? `matchId: this table scorer token scores ${table.name}'s current match (${table.current}), not match "${matchId}"`
          : `matchId: ${table.name} has no current match; this table scorer token scores only it`,
        'matchId',
      );
    return 'ok';
  }

  /**
   * Swap the current matches of tables `a` and `b` (the draw service's override, which checked the organiser).
   * Refusals: `not-found` (eventId, `tables.0`, `tables.1`), `invalid-request` (the same table twice).
   */
  async swapTables(id: string, a: string, b: string): Promise<Changed | Failure> {
    const doc = await this.read(id);
    if (!doc) return eventNotFound(id);
    const won = new Set<string>();
    for (const t of doc.tables)
      if ((t.id === a || t.id === b) && t.current && (await this.matches.currentState(t.current).catch(() => null))?.state.winner) won.add(t.current);
    return this.commit(id, undefined, (d) => withTablesSwapped(d, a, b, won));
  }

  /**
   * Take match `matchId` off table `tableId` where it is current (the draw service's undo of an assignment, which
   * checked the organiser and that no step was recorded); the match is removed from the store when still unscored.
   * Refusals: `not-found` (eventId, table), `no-current-match` (table).
   */
  async takeOffTable(id: string, tableId: string, matchId: string): Promise<Changed | Failure> {
    const res = await this.commit(id, undefined, (d) => withCurrentTakenOff(d, tableId, matchId));
    if (res.ok) await this.removeUnused(id, [matchId]);
    return res;
  }

  /**
   * Close match `matchId` in event `id` (the draw service, which checked the organiser: the organiser decided it in
   * the draw, or a correction reset it; see `withMatchClosed`): it leaves its table at once and no scorer token
   * may record for it any more. Refusals: `not-found` (eventId).
   */
  async closeMatch(id: string, matchId: string, by: 'result' | 'reset'): Promise<Changed | Failure> {
    const res = await this.commit(id, undefined, (d) => withMatchClosed(d, matchId, by, this.clock.now()));
    this.closedSeen.delete(matchId);
    return res;
  }

  /**
   * `match-over` naming `matchId` when an event that lists match `matchId` closed it (the organiser decided it in
   * the draw, or a correction reset it), else null: the match service asks before every step, whoever's the token.
   */
  async closedCheck(matchId: string): Promise<Failure | null> {
    const hit = this.closedSeen.get(matchId);
    if (hit && this.clock.now() - hit.at < LINKS_TTL_MS) return hit.failure;
    let failure: Failure | null = null;
    for (const eventId of await this.eventsOf(matchId)) {
      const listed = (await this.read(eventId))?.matches.find((m) => m.id === matchId);
      if (listed?.closed) failure = closedFailure(listed);
    }
    if (this.closedSeen.size >= 50_000) this.closedSeen.clear();
    this.closedSeen.set(matchId, { failure, at: this.clock.now() });
    return failure;
  }

  /** The events match `matchId` is on (each checked against its document). */
  async eventsOfMatch(matchId: string): Promise<string[]> {
    const out: string[] = [];
    for (const eventId of await this.eventsOf(matchId)) if ((await this.read(eventId))?.matches.some((m) => m.id === matchId)) out.push(eventId);
    return out;
  }

  private async makeTableMatch(
    doc: TournamentDoc,
    tableId: string,
    body: z.output<typeof tableMatchSchema>,
    draw?: DrawMatchRef,
  ): Promise<{ ok: true; event: TournamentDoc; match: { id: string; scorerToken: string } } | Failure> {
    const id = doc.id;
    const found = findTable(doc, tableId);
    if ('ok' in found) return found;
    if (body.expectedVersion !== undefined && body.expectedVersion !== doc.version) return stale(doc.version, body.expectedVersion);
    const setup = tableMatchSetup(doc, body.playerIds, body.setup);
    const clock = tableMatchClock(doc);
    if (clock && !this.shotClocks) throw new Error('the event defaults name a shot clock but the event service has no shot clocks');
    const created = await this.matches.create(setup);
    // The clock before the table: a match that could not get its clock is never put on the table.
    if (clock) await this.shotClocks!.applyNew(created.id, clock);
    const placed = await this.commit(id, body.expectedVersion, (d) =>
      withMatchOnTable(d, tableId, { id: created.id, setup, made: true, ...(draw ? { draw } : {}) }, body.start === true, this.clock.now()),
    );
    if (!placed.ok) {
      // Not placed (stale, the event full, …): nobody got its scorer token, so it is removed again.
      await this.removeUnused(id, [created.id]);
      return placed;
    }
    return { ok: true, event: placed.event, match: { id: created.id, scorerToken: created.scorerToken } };
  }

  /** Put an existing match on table `tableId` (next, or current with `start`; a match already won gets its summary). */
  async assign(id: string, token: string | undefined, tableId: string, matchId: string, start: boolean, expected?: number): Promise<Changed | Failure> {
    const cur = await this.matches.currentState(matchId);
    if (!cur) return fail('not-found', `matchId: no match "${matchId}"`, 'matchId');
    const match = { id: matchId, setup: cur.setup, won: cur.state.winner !== null };
    return this.change(id, token, expected, (d) => withMatchOnTable(d, tableId, match, start, this.clock.now()));
  }

  /** Start table `tableId`'s next match (a match the scorer already finished gets its summary, not an intro). */
  async start(id: string, token: string | undefined, tableId: string, expected?: number): Promise<Changed | Failure> {
    const doc = await this.read(id);
    const found = doc && findTable(doc, tableId);
    const next = found && !('ok' in found) ? found.table.next : null;
    const won = new Set<string>();
    if (next && (await this.matches.currentState(next).catch(() => null))?.state.winner) won.add(next);
    return this.change(id, token, expected, (d) => withNextStarted(d, tableId, this.clock.now(), won));
  }

  /** Undo table `tableId`'s last *Start next match* (within START_UNDO_MS; see `withStartUndone`). */
  undoStart(id: string, token: string | undefined, tableId: string, expected?: number): Promise<Changed | Failure> {
    return this.change(id, token, expected, (d) => withStartUndone(d, tableId, this.clock.now()));
  }

  /**
   * Add a sponsor's logo (already checked: type by content, size, name, seconds): the image is stored first,
   * then listed at the end of the event's sponsors; when the listing is refused (too many, auth) the stored
   * image is removed again. @returns the event and the new sponsor.
   */
  async addSponsor(
    id: string,
    token: string | undefined,
    meta: Omit<SponsorInfo, 'id'>,
    image: SponsorImage,
  ): Promise<(Changed & { sponsor: SponsorInfo }) | Failure> {
    const authorised = await this.organisers(id, token);
    if (!authorised.ok) return authorised;
    const sponsor: SponsorInfo = { id: `s${newMatchId()}`, ...meta };
    await this.sponsors.put(id, sponsor.id, image);
    const res = await this.commit(id, undefined, (d) => withSponsor(d, sponsor));
    if (!res.ok) {
      await this.sponsors.delete(id, sponsor.id).catch(() => undefined);
      return res;
    }
    return { ...res, sponsor };
  }

  /** Remove a sponsor: unlisted first, then its image deleted (a failure there leaves an unlisted image, harmless). */
  async removeSponsor(id: string, token: string | undefined, sponsorId: string): Promise<Changed | Failure> {
    const res = await this.change(id, token, undefined, (d) => withoutSponsor(d, sponsorId));
    if (res.ok)
      await this.sponsors.delete(id, sponsorId).catch((err: Error) => this.log.warn({ eventId: id, sponsorId, err: err.message }, 'sponsor image not deleted'));
    return res;
  }

  /** A listed sponsor's image, or null (unknown event, or not one of its sponsors). */
  async sponsorImage(id: string, sponsorId: string): Promise<SponsorImage | null> {
    const doc = await this.read(id);
    if (!doc?.sponsors?.some((s) => s.id === sponsorId)) return null;
    return this.sponsors.load(id, sponsorId);
  }

  /** A producer's card action on a table. */
  cards(id: string, token: string | undefined, tableId: string, action: CardAction, expected?: number): Promise<Changed | Failure> {
    return this.change(id, token, expected, (d) => withCardAction(d, tableId, action));
  }

  /**
   * Hear a step recorded on this instance (in version order per match): push its live line to each event
   * that lists the match, and apply the automatic cards. A link the event's document does not confirm (left
   * by a crash or a concurrent change, see the tournament store) is skipped. Never throws (a failure is logged).
   */
  async onMatchStep(push: StatePush): Promise<void> {
    try {
      const won = push.state.winner !== null;
      const undo = 'undo' in push.step;
      for (const eventId of await this.eventsOf(push.matchId)) {
        const doc = await this.read(eventId);
        if (!doc?.matches.some((m) => m.id === push.matchId)) continue;
        this.pushes.live({ eventId, line: liveLineOf(push) });
        if (!autoCards(doc, push.matchId, won, undo)) continue;
        const res = await this.commit(eventId, undefined, (d) => autoCards(d, push.matchId, won, undo) ?? d);
        if (!res.ok) this.log.warn({ eventId, matchId: push.matchId, err: res.error.message }, 'automatic cards not applied');
      }
    } catch (err) {
      this.log.error({ matchId: push.matchId, err: (err as Error).message }, 'event hook of a recorded step failed');
    }
  }

  /**
   * After the fan-out was interrupted: the current state of each given table (`[eventId, tableId]`); each
   * event is read once, all of them at once (one pipeline). @throws when the store is unavailable.
   */
  async resyncTables(tables: Iterable<readonly [string, string]>): Promise<TableState[]> {
    const byEvent = new Map<string, string[]>();
    for (const [eventId, tableId] of tables) byEvent.set(eventId, [...(byEvent.get(eventId) ?? []), tableId]);
    const docs = await Promise.all([...byEvent.keys()].map((id) => this.read(id)));
    return docs.flatMap((doc) => {
      if (!doc) return [];
      return byEvent.get(doc.id)!.flatMap((tableId) => {
        const found = findTable(doc, tableId);
        return 'ok' in found ? [] : [tableStateOf(doc, found.table)];
      });
    });
  }

  /** After the fan-out was interrupted: the current view of each given event (read at once). */
  async resyncEvents(ids: Iterable<string>): Promise<EventView[]> {
    const views = await Promise.all([...ids].map((id) => this.view(id)));
    return views.filter((v) => v !== null);
  }

  /** Wait for every queued change (graceful shutdown). */
  drain(): Promise<void> {
    return this.docs.drain();
  }

  /** The freshest document this instance can see: from the store when shared, else from the cache. */
  private async read(id: string): Promise<TournamentDoc | null> {
    if (!SAFE_ID.test(id)) return null;
    if (!this.shared) return this.docs.get(id);
    const doc = await this.store.loadTournament(id);
    if (doc) {
      const cached = await this.docs.peek(id)?.catch(() => null);
      if (!cached || cached.version <= doc.version) this.docs.set(id, doc);
    }
    return doc;
  }

  /** Apply `fn` to the freshest document and write it by compare-and-set, in the event's serial queue. */
  private commit(id: string, expected: number | undefined, fn: (doc: TournamentDoc) => Change): Promise<Changed | Failure> {
    return this.docs
      .serial(id, async (): Promise<Changed | Failure> => {
        let doc = this.shared ? await this.read(id) : await this.docs.get(id);
        for (let attempt = 0; attempt < MAX_ATTEMPTS && doc; attempt++) {
          if (expected !== undefined && doc.version !== expected) return stale(doc.version, expected);
          const next = fn(doc);
          if (refused(next)) return next;
          if (next === doc) return { ok: true, event: doc };
          const saved: TournamentDoc = { ...next, version: doc.version + 1, updatedAt: this.clock.now() };
          const links = linkChange(doc, saved);
          const res = await this.store.saveTournament(saved, doc.version, links);
          if (res.status === 'ok') {
            this.docs.set(id, saved);
            this.noteLinks(id, links.linked, links.unlinked);
            this.publish(doc, saved);
            await this.removeUnused(id, unusedMatches(doc, saved));
            return { ok: true, event: saved };
          }
          // Another instance wrote first: re-apply the change to what it wrote.
          doc = await this.store.loadTournament(id);
        }
        return doc ? fail('internal', 'the event changed too often meanwhile; retry') : eventNotFound(id);
      })
      .catch((err: unknown) => {
        if (err instanceof RulesError) return { ok: false as const, error: err.toJSON() };
        this.log.error({ eventId: id, err: (err as Error).message }, 'event change failed');
        const known = storeErrorOf(err);
        if (known) return fail(known.code, known.message);
        return fail('internal', 'the event store is unavailable; retry');
      });
  }

  /**
   * Remove from the match store the matches event `eventId` made and no longer lists, when no step was
   * recorded for them and no other event lists them (a match with steps stays: its shots are never lost; it
   * is logged). Never throws: a failure is logged and the match stays.
   */
  private async removeUnused(eventId: string, ids: readonly string[]): Promise<void> {
    for (const matchId of ids) {
      try {
        const others = (await this.store.tournamentsOfMatch(matchId)).filter((e) => e !== eventId);
        const listed = await Promise.all(others.map(async (e) => (await this.store.loadTournament(e))?.matches.some((m) => m.id === matchId) === true));
        if (listed.includes(true)) continue;
        const res = await this.matches.removeIfUnscored(matchId);
        if (res === 'has-steps') this.log.info({ eventId, matchId }, 'a next match taken off its table keeps its recorded steps (not removed)');
      } catch (err) {
        this.log.warn({ eventId, matchId, err: (err as Error).message }, 'unused match not removed');
      }
    }
  }

  /** Push the changed tables (in commit order) and then the event with its live lines. */
  private publish(before: TournamentDoc, after: TournamentDoc): void {
    for (const t of after.tables) {
      const now = tableStateOf(after, t);
      const old = before.tables.find((b) => b.id === t.id);
      if (!old || !sameTable(tableStateOf(before, old), now)) this.pushes.table(now);
      if (t.current !== null && t.current !== (old?.current ?? null)) {
        const m = after.matches.find((x) => x.id === t.current);
        if (m) this.pushes.matchStarted?.({ eventId: after.id, table: t.id, tableName: t.name, matchId: m.id, players: m.players });
      }
    }
    void this.viewOf(after).then(
      (view) => this.pushes.event(view),
      (err: Error) => this.log.warn({ eventId: after.id, err: err.message }, 'event push failed'),
    );
  }

  /** The public event with the live line of each of its matches. */
  private async viewOf(doc: TournamentDoc): Promise<EventView> {
    const live: Record<string, LiveLine> = {};
    // The state alone (no statistics): a live line is the scorebug.
    const current = await Promise.all(doc.matches.map((m) => this.matches.currentState(m.id).catch(() => null)));
    for (const c of current) if (c) live[c.matchId] = liveLineOf(c);
    return { ...publicInfo(doc), live };
  }

  /** The events match `matchId` may be on: remembered for a second, else asked of the store. */
  private async eventsOf(matchId: string): Promise<readonly string[]> {
    const hit = this.links.get(matchId);
    if (hit && this.clock.now() - hit.at < LINKS_TTL_MS) return hit.events;
    const events = await this.store.tournamentsOfMatch(matchId);
    if (this.links.size >= 50_000) this.links.clear();
    this.links.set(matchId, { events, at: this.clock.now() });
    return events;
  }

  /** A change of this instance: its matches' links known at once (others' are asked of the store). */
  private noteLinks(eventId: string, linked: readonly string[], unlinked: readonly string[]): void {
    for (const m of [...linked, ...unlinked]) {
      const hit = this.links.get(m);
      if (!hit) continue;
      const others = hit.events.filter((e) => e !== eventId);
      this.links.set(m, { events: linked.includes(m) ? [...others, eventId] : others, at: hit.at });
    }
  }
}

/** Two table states alike but for the event version. */
function sameTable(a: TableState, b: TableState): boolean {
  return JSON.stringify({ ...a, version: 0 }) === JSON.stringify({ ...b, version: 0 });
}

/** `match-over` naming `matchId` for a match its event closed (`EventMatch.closed`), saying why. */
function closedFailure(m: EventMatch): Failure {
  const what = m.draw ? `${m.draw.roundName} (${m.draw.match})` : `match "${m.id}"`;
  const why =
    m.closed?.by === 'reset'
      ? `a correction of an earlier result put ${what} back to waiting in the draw`
      : `the organiser recorded its result in the draw (a result, a walkover or a retirement)`;
  return fail('match-over', `matchId: ${what} is over: ${why}; it left its table and can no longer be scored`, 'matchId');
}

/** `not-found` naming `eventId`: no event `id`. */
export function eventNotFound(id: string): Failure {
  return fail('not-found', `eventId: no event "${id}"`, 'eventId');
}

function stale(version: number, expected: number): Failure {
  return { ...fail('stale', `expectedVersion: the event is at version ${version}, not ${expected}`, 'expectedVersion'), currentVersion: version };
}

/** `unauthorized` without a token, `forbidden` with another event's (or a wrong) token, else null. */
function authFailure(doc: TournamentDoc, token: string | undefined): Failure | null {
  if (token === undefined || token === '') return fail('unauthorized', "this needs the event's organiser token (Authorization: Bearer …)", 'token');
  if (!tokenMatches(token, doc.tokenHash)) return fail('forbidden', 'this token is not the organiser token of this event', 'token');
  return null;
}
