/**
 * The draw service (issue 27): an event's draw stored as its definition and entries (DrawStore), its state
 * rebuilt by shared/draw on every read (a 128-player double elimination in under a millisecond: bench:draw).
 * Every change of a draw runs in the event's serial queue and is written by compare-and-set on the draw's
 * version (re-applied to the fresh draw when another instance wrote first); each change pushes the draw page's
 * delta (`draw`).
 *
 * Results flow by themselves: the service hears every recorded step (wired beside the event service); when a
 * match the draw started is won, its result (winner, score, innings, high runs) enters the draw and the next
 * matches become ready. Autopilot: when a table is free (no current match, or its current match is won) the
 * next ready match goes on it — earliest round first; a pinned match waits for its table; a featured match for
 * the TV table, which takes featured matches first — made as a cuecast match with the players and race and
 * started as the table's current match, so the table's overlay, screen, clock and the hall board follow it. A
 * player is never on two tables: the draw refuses to start a match of a player who is playing (`player-busy`).
 */
import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import type { z } from 'zod';
import {
  applyDrawEntry,
  drawMatchRef,
  drawDelta,
  DRAW_FORMAT_NAMES,
  DRAW_FORMATS,
  drawFormatParts,
  drawState,
  drawView,
  matchViews,
  raceProblem,
  readyMatches,
  type DrawDefinition,
  type DrawEntry,
  type DrawFormatOption,
  type DrawMatchView,
  type DrawState,
  type DrawView,
} from '../../shared/draw/index';
import { DRAW_PLAYERS_MIN, type DrawError } from '../../shared/draw/structure';
import { RulesError } from '../../shared/protocol/errors';
import { shotPointsMax } from '../../shared/protocol/limits';
import { defaultTargets, type RotationOptions } from '../../shared/protocol/setup';
import type { DrawPush } from '../../shared/protocol/draw';
import type { StatePush } from '../../shared/protocol/wire';
import type { Clock } from '../clock';
import type { EventService } from '../events/service';
import { fail, type Failure } from '../failure';
import type { MatchService } from '../matches/service';
import {
  absentPolicySchema,
  absentSchema,
  autopilotSchema,
  drawCreateSchema,
  drawResultSchema,
  holdSchema,
  pinSchema,
  roundRaceSchema,
  swapSchema,
  unassignSchema,
} from '../protocol/draw-schemas';
import { parseEventBody } from '../protocol/event-schemas';
import { initialSettings, type DrawChange, type DrawDoc, type DrawSettings, type DrawStore } from '../storage/draw-store';

/** What the draw page's room receives after each change (shared/protocol/draw.ts). */
export type { DrawPush };

/** A draw as `GET /api/events/<id>/draw` answers it. */
export interface DrawInfo {
  eventId: string;
  version: number;
  /** When the draw was made (ms since the epoch; a replaced draw has another). */
  createdAt: number;
  settings: DrawSettings;
  definition: DrawDefinition;
  draw: DrawView;
}

export interface DrawServiceOptions {
  store: DrawStore;
  events: EventService;
  matches: MatchService;
  log: Logger;
  clock: Clock;
  pushes: {
    draw(push: DrawPush): void;
    /**
     * The organiser recorded (or, `corrected`, changed) the result of draw match `match` (its view after it), once
     * the draw took it (the webhooks' `match.finished`). Optional.
     */
    decided?(d: { eventId: string; match: DrawMatchView; corrected: boolean }): void;
  };
  /** The random draw's seed when the organiser gives none (default: crypto's randomInt). */
  pickSeed?: () => number;
}

type Ok<T> = { ok: true } & T;
/** A change of a draw: entries to append and/or new settings, or a refusal. */
type Plan = DrawChange | Failure;

const MAX_ATTEMPTS = 5;

/**
 * `invalid-draw` (400) naming `field` when event `event` has no table `table` (the message lists its tables), else
 * null: every draw operation that names a table in its body (a pin, a hold, a swap, the TV table) refuses an
 * unknown one so, and changes nothing.
 */
export function unknownTable(event: { tables: readonly { id: string }[] }, field: string, table: string): Failure | null {
  if (event.tables.some((t) => t.id === table)) return null;
  const ids = event.tables.map((t) => t.id).join(', ');
  return fail('invalid-draw', `${field}: no table "${table}" in this event (tables: ${ids || 'none'})`, field);
}

/** A refusal of shared/draw as the wire's failure. */
function drawFailure(e: DrawError): Failure {
  return fail(e.code, e.message, e.field);
}

export class DrawService {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly pickSeed: () => number;

  constructor(private readonly opts: DrawServiceOptions) {
    this.pickSeed = opts.pickSeed ?? (() => randomInt(0, 2 ** 32));
  }

  /** Run `fn` after every earlier change of event `eventId` on this instance (one at a time per event). */
  private serial<T>(eventId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(eventId) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.chains.set(eventId, tail);
    void tail.then(() => {
      if (this.chains.get(eventId) === tail) this.chains.delete(eventId);
    });
    return run;
  }

  /** Wait for every queued change of event `eventId` (tests, shutdown). */
  async settled(eventId: string): Promise<void> {
    while (this.chains.has(eventId)) await this.chains.get(eventId);
  }

  /** `unauthorized` / `forbidden` / `not-found` for `token` on event `eventId`, or null when it is the organiser's. */
  private async organiserFailure(eventId: string, token: string | undefined): Promise<Failure | null> {
    const valid = await this.opts.events.tokenValid(eventId, token ?? '');
    if (valid === null) return fail('not-found', `eventId: no event "${eventId}"`, 'eventId');
    if (token === undefined || token === '') return fail('unauthorized', "this needs the event's organiser token (Authorization: Bearer …)", 'token');
    return valid ? null : fail('forbidden', 'this token is not the organiser token of this event', 'token');
  }

  /** The stored draw and its state, or null. @throws when a stored draw no longer rebuilds (damage; logged). */
  private async load(eventId: string): Promise<{ doc: DrawDoc; state: DrawState } | null> {
    const doc = await this.opts.store.load(eventId);
    if (!doc) return null;
    const state = drawState(doc.definition, doc.entries);
    if ('error' in state) throw new Error(`the stored draw of event ${eventId} does not rebuild: ${state.error.message}`);
    return { doc, state };
  }

  /**
   * Make the event's draw from an untrusted body (drawCreateSchema). Refusals name the field: `invalid-draw`
   * (the body; fewer than 2 players; a player twice; a player not on the roster; a bad race, group size or
   * advance), `draw-started` (a draw that has begun is replaced only with `cancel: true`), auth failures.
   */
  create(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.serial(eventId, async () => {
      const denied = await this.organiserFailure(eventId, token);
      if (denied) return denied;
      let b: z.output<typeof drawCreateSchema>;
      try {
        b = parseEventBody(drawCreateSchema, body, 'invalid-draw');
      } catch (err) {
        if (err instanceof RulesError) return { ok: false as const, error: err.toJSON() };
        throw err;
      }
      const unused = optionNotForFormat(b);
      if (unused) return unused;
      const event = (await this.opts.events.view(eventId))!;
      const ids = b.players ?? event.roster.map((p) => p.id);
      const seen = new Map<string, number>();
      for (const [i, id] of ids.entries()) {
        if (!event.roster.some((p) => p.id === id)) return fail('invalid-draw', `players.${i}: no player "${id}" on the roster`, `players.${i}`);
        if (seen.has(id)) return fail('invalid-draw', `players.${i}: player "${id}" is in the draw twice (also players.${seen.get(id)})`, `players.${i}`);
        seen.set(id, i);
      }
      const noTv = b.tvTable === undefined ? null : unknownTable(event, 'tvTable', b.tvTable);
      if (noTv) return noTv;
      // The field before the rest: a draw of fewer than 2 players has nothing else worth checking.
      if (ids.length < DRAW_PLAYERS_MIN)
        return fail(
          'invalid-draw',
          `players: a draw needs at least ${DRAW_PLAYERS_MIN} players, got ${ids.length}${b.players ? '' : ` (the roster has ${event.roster.length}; add players first)`}`,
          'players',
        );
      // The race when the draw names none: the event's default target, else the discipline's (14-1: 100; Rotation: 120, or 61 for one rack).
      const rotationFormat = (event.defaults.options as Partial<RotationOptions> | undefined)?.format;
      const defaultRace = b.races?.default ?? event.defaults.targets?.[0] ?? defaultTargets(event.defaults.discipline, rotationFormat)[0];
      const seeding: DrawDefinition['seeding'] = b.seeding === 'random' ? { by: 'random', seed: b.seed ?? this.pickSeed() } : { by: b.seeding ?? 'rating' };
      if (b.seed !== undefined && b.seeding !== 'random') return fail('invalid-draw', 'seed: a seed is for seeding "random"', 'seed');
      const definition: DrawDefinition = {
        format: b.format,
        players: ids.map((id) => {
          const rating = event.roster.find((p) => p.id === id)!.rating;
          return rating === undefined ? { id } : { id, rating };
        }),
        seeding,
        races: { default: defaultRace, ...(b.races?.sides ? { sides: b.races.sides } : {}), ...(b.races?.rounds ? { rounds: b.races.rounds } : {}) },
        ...(b.trueDouble !== undefined ? { trueDouble: b.trueDouble } : {}),
        ...(b.groupSize !== undefined ? { groupSize: b.groupSize } : {}),
        ...(b.advance !== undefined ? { advance: b.advance } : {}),
        ...(b.knockout !== undefined ? { knockout: b.knockout } : {}),
      };
      const fresh = drawState(definition, []);
      if ('error' in fresh) {
        const f = fresh.error;
        // The body lists roster ids: `players.2.id` of the definition is `players.2` of the body.
        const field = f.field.replace(/^players\.(\d+)\.id$/, 'players.$1');
        return fail(f.code, f.message.replace(f.field, field), field);
      }
      for (const [i, id] of (b.featured ?? []).entries())
        if (!fresh.structure.index.has(id)) return fail('not-in-draw', `featured.${i}: no match "${id}" in this draw`, `featured.${i}`);
      const cur = await this.load(eventId);
      if (cur && cur.doc.entries.some((e) => e.t !== 'race') && b.cancel !== true) {
        return fail(
          'draw-started',
          'cancel: the draw has begun (matches started or results recorded); send cancel: true to replace it and drop its results',
          'cancel',
        );
      }
      const settings: DrawSettings = { ...initialSettings(b.tvTable ?? null), autopilot: b.autopilot === true, featured: b.featured ?? [] };
      const createdAt = this.opts.clock.now();
      const res = await this.opts.store.create({ eventId, definition, settings, createdAt }, cur?.doc.version);
      if (res.status !== 'ok') return fail('stale', 'the draw changed meanwhile; retry', 'expectedVersion');
      this.opts.log.info({ eventId, format: definition.format, players: ids.length, seeding }, 'draw created');
      const view = drawView(fresh);
      this.opts.pushes.draw({
        eventId,
        version: 0,
        createdAt,
        delta: { from: -1, to: 0, matches: view.matches, ready: view.ready, groups: view.groups, standings: view.standings, champion: null },
      });
      if (settings.autopilot) void this.fill(eventId);
      return { ok: true as const, draw: { eventId, version: 0, createdAt, settings, definition, draw: view } };
    });
  }

  /** The event's draw, or `not-found` naming `draw`. */
  async get(eventId: string): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    const cur = await this.load(eventId);
    if (!cur) return fail('not-found', `draw: event "${eventId}" has no draw`, 'draw');
    return { ok: true, draw: this.info(cur.doc, cur.state) };
  }

  private info(doc: DrawDoc, state: DrawState): DrawInfo {
    return { eventId: doc.eventId, version: doc.version, createdAt: doc.createdAt, settings: doc.settings, definition: doc.definition, draw: drawView(state) };
  }

  /**
   * The organiser records or corrects a result (drawResultSchema); refusals name the field. A match that was on a
   * table (being played) leaves it at once, and so does each match a correction's `reset` puts back to waiting:
   * the event closes their cuecast matches (`EventService.closeMatch`), so no scorer token records for them any
   * more and autopilot fills the freed tables.
   */
  result(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.organiserAction(eventId, token, drawResultSchema, body, async (b) => {
      const { expectedVersion, ...rest } = b;
      // A win's score against the match's race (the sheet's score, when it was played at a table, stands as played).
      const before = await this.load(eventId);
      const target = before && matchViews(before.state).find((m) => m.id === rest.match);
      if (target && target.players[0] !== null && target.players[1] !== null && (rest.winner === target.players[0] || rest.winner === target.players[1])) {
        const sheet = target.matchId ? ((await this.opts.matches.currentState(target.matchId))?.state.score ?? null) : null;
        const discipline = (await this.opts.events.view(eventId))?.defaults.discipline ?? '14-1';
        const problem = raceProblem(rest, target.race, [target.players[0], target.players[1]], shotPointsMax(discipline), sheet);
        if (problem) return drawFailure(problem);
      }
      let playing: DrawMatchView[] = [];
      let corrected = false;
      const res = await this.commit(eventId, expectedVersion, (_doc, state) => {
        const views = matchViews(state);
        playing = views.filter((m) => m.status === 'playing' && m.matchId !== undefined);
        corrected = views.find((m) => m.id === rest.match)?.status === 'done';
        return { entries: [{ t: 'result', ...rest }] };
      });
      if (!res.ok) return res;
      const now = new Map(res.draw.draw.matches.map((m) => [m.id, m]));
      const decided = now.get(rest.match);
      if (decided) this.opts.pushes.decided?.({ eventId, match: decided, corrected });
      for (const m of playing) {
        const after = now.get(m.id);
        if (after?.status === 'playing' && after.matchId === m.matchId) continue;
        const by = m.id === rest.match ? 'result' : 'reset';
        const closed = await this.opts.events.closeMatch(eventId, m.matchId!, by);
        if (closed.ok) this.opts.log.info({ eventId, match: m.id, matchId: m.matchId, table: m.table, by }, 'a decided match left its table');
        else this.opts.log.error({ eventId, match: m.id, matchId: m.matchId, err: closed.error.message }, 'a decided match did not leave its table');
      }
      return res;
    });
  }

  /** Turn autopilot on or off (off pauses it: matches on tables play on; nothing new goes on a table). */
  autopilot(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.organiserChange(eventId, token, autopilotSchema, body, (b, doc) => ({ settings: { ...doc.settings, autopilot: b.on } }));
  }

  /**
   * Pin a match to a table (it waits for that table), or unpin it (`table: null`). Refusals: `not-in-draw` naming
   * `match`, `invalid-draw` naming `table` (no such table in the event; the message lists them).
   */
  pin(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.organiserAction(eventId, token, pinSchema, body, async (b) => {
      const event = (await this.opts.events.view(eventId))!;
      return this.commit(eventId, b.expectedVersion, (doc, state) => {
        if (!state.structure.index.has(b.match)) return fail('not-in-draw', `match: no match "${b.match}" in this draw`, 'match');
        const pins = { ...doc.settings.pins };
        if (b.table === null) delete pins[b.match];
        else {
          const unknown = unknownTable(event, 'table', b.table);
          if (unknown) return unknown;
          pins[b.match] = b.table;
        }
        return { settings: { ...doc.settings, pins } };
      });
    });
  }

  /** Change a round's race (before its first match starts). */
  race(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.organiserChange(eventId, token, roundRaceSchema, body, (b) => ({ entries: [{ t: 'race', round: b.round, race: b.race }] }));
  }

  /**
   * Mark a player of the draw absent (not arrived) or back (absentSchema): autopilot passes over their ready
   * matches (policy `wait`) or walks them over (policy `walkover`). A match already on a table plays on (undo its
   * assignment to take it off). Refusals: `invalid-draw` naming `player` (not a player of this draw).
   */
  absent(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.organiserChange(eventId, token, absentSchema, body, (b, doc) => {
      if (!doc.definition.players.some((p) => p.id === b.player)) return fail('invalid-draw', `player: "${b.player}" is not a player of this draw`, 'player');
      const absent = (doc.settings.absent ?? []).filter((p) => p !== b.player);
      return { settings: { ...doc.settings, absent: b.absent ? [...absent, b.player] : absent } };
    });
  }

  /** What a ready match of an absent player does (absentPolicySchema): `wait` or `walkover`. */
  absentPolicy(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.organiserChange(eventId, token, absentPolicySchema, body, (b, doc) => ({ settings: { ...doc.settings, absentPolicy: b.policy } }));
  }

  /** Hold a table (autopilot leaves it alone) or release it (holdSchema). Refusals: `invalid-draw` naming `table` (no such table). */
  hold(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.organiserAction(eventId, token, holdSchema, body, async (b) => {
      const event = (await this.opts.events.view(eventId))!;
      const unknown = unknownTable(event, 'table', b.table);
      if (unknown) return unknown;
      return this.commit(eventId, b.expectedVersion, (doc) => {
        const held = (doc.settings.held ?? []).filter((t) => t !== b.table);
        return { settings: { ...doc.settings, held: b.held ? [...held, b.table] : held } };
      });
    });
  }

  /**
   * Swap the matches on two tables (swapSchema): each goes on the other table, in the event (the tables' pages,
   * tablets and overlays follow) and in the draw. Refusals: `invalid-draw` naming `tables.0` / `tables.1` (no such
   * table), `invalid-request` naming `tables.1` (the same table twice).
   */
  swap(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.organiserAction(eventId, token, swapSchema, body, async (b) => {
      const [x, y] = b.tables;
      const event = (await this.opts.events.view(eventId))!;
      const unknown = unknownTable(event, 'tables.0', x) ?? unknownTable(event, 'tables.1', y);
      if (unknown) return unknown;
      const cur = await this.load(eventId);
      if (!cur) return fail('not-found', `draw: event "${eventId}" has no draw`, 'draw');
      if (b.expectedVersion !== undefined && b.expectedVersion !== cur.doc.version)
        return {
          ...fail('stale', `expectedVersion: the draw is at version ${cur.doc.version}, not ${b.expectedVersion}`, 'expectedVersion'),
          currentVersion: cur.doc.version,
        };
      const moved = await this.opts.events.swapTables(eventId, x, y);
      if (!moved.ok) return moved;
      const res = await this.commit(eventId, undefined, (_doc, state) => {
        const playing = matchViews(state).filter((m) => m.status === 'playing' && (m.table === x || m.table === y));
        if (playing.length === 0) return {};
        return {
          entries: [
            ...playing.map((m): DrawEntry => ({ t: 'unstart', match: m.id })),
            ...playing.map((m): DrawEntry => ({ t: 'start', match: m.id, table: m.table === x ? y : x, ...(m.matchId ? { matchId: m.matchId } : {}) })),
          ],
        };
      });
      if (!res.ok) this.opts.log.error({ eventId, tables: b.tables, err: res.error.message }, 'tables swapped but the draw did not take the swap');
      else this.opts.log.info({ eventId, tables: b.tables }, 'tables swapped');
      return res;
    });
  }

  /**
   * Undo an assignment (unassignSchema): the match leaves its table before a shot is recorded and is ready again;
   * its table is held (autopilot leaves it alone until released with `hold`). Refusals: `not-in-draw` naming
   * `match`, `not-ready` (not on a table), `match-on-table` (shots recorded: record a walkover or a retirement).
   */
  unassign(eventId: string, token: string | undefined, body: unknown): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.organiserAction(eventId, token, unassignSchema, body, async (b) => {
      const cur = await this.load(eventId);
      if (!cur) return fail('not-found', `draw: event "${eventId}" has no draw`, 'draw');
      const m = matchViews(cur.state).find((v) => v.id === b.match);
      if (!m) return fail('not-in-draw', `match: no match "${b.match}" in this draw`, 'match');
      if (m.status === 'done')
        return fail(
          'not-ready',
          `match: ${m.place} is decided (${m.result?.kind ?? 'a result'}); it is on no table, so there is no assignment to undo`,
          'match',
        );
      if (m.status !== 'playing') return fail('not-ready', `match: ${m.place} is not on a table (nothing to undo)`, 'match');
      if (m.matchId) {
        const version = (await this.opts.matches.currentState(m.matchId))?.version ?? 0;
        if (version > 0)
          return fail(
            'match-on-table',
            `match: ${m.place} has ${version} step(s) recorded on ${m.table ?? 'its table'}; record a walkover or a retirement instead (draw/results)`,
            'match',
          );
        if (m.table) {
          const off = await this.opts.events.takeOffTable(eventId, m.table, m.matchId);
          if (!off.ok && off.error.code !== 'no-current-match') return off;
        }
      }
      const res = await this.commit(eventId, b.expectedVersion, (doc) => ({
        entries: [{ t: 'unstart', match: m.id }],
        ...(m.table ? { settings: { ...doc.settings, held: [...(doc.settings.held ?? []).filter((t) => t !== m.table), m.table] } } : {}),
      }));
      if (res.ok) this.opts.log.info({ eventId, match: m.id, table: m.table }, 'assignment undone');
      return res;
    });
  }

  /** Run `act` for the organiser in the event's queue, after the body's parse; autopilot fills the tables after it. */
  private organiserAction<T>(
    eventId: string,
    token: string | undefined,
    schema: z.ZodType<T>,
    body: unknown,
    act: (b: T) => Promise<Ok<{ draw: DrawInfo }> | Failure>,
  ): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.serial(eventId, async () => {
      const denied = await this.organiserFailure(eventId, token);
      if (denied) return denied;
      let b: T;
      try {
        b = parseEventBody(schema, body, 'invalid-draw');
      } catch (err) {
        if (err instanceof RulesError) return { ok: false as const, error: err.toJSON() };
        throw err;
      }
      const res = await act(b);
      if (res.ok) void this.fill(eventId);
      return res;
    });
  }

  private organiserChange<T extends { expectedVersion?: number | undefined }>(
    eventId: string,
    token: string | undefined,
    schema: z.ZodType<T>,
    body: unknown,
    plan: (b: T, doc: DrawDoc, state: DrawState) => Plan,
  ): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    return this.serial(eventId, async () => {
      const denied = await this.organiserFailure(eventId, token);
      if (denied) return denied;
      let b: T;
      try {
        b = parseEventBody(schema, body, 'invalid-draw');
      } catch (err) {
        if (err instanceof RulesError) return { ok: false as const, error: err.toJSON() };
        throw err;
      }
      const res = await this.commit(eventId, b.expectedVersion, (doc, state) => plan(b, doc, state));
      if (res.ok) void this.fill(eventId);
      return res;
    });
  }

  /**
   * Apply `plan` to the freshest draw and store it by compare-and-set (re-planned when another instance wrote
   * first); entries are checked by shared/draw before anything is stored. Pushes the delta.
   */
  private async commit(
    eventId: string,
    expected: number | undefined,
    plan: (doc: DrawDoc, state: DrawState) => Plan,
  ): Promise<Ok<{ draw: DrawInfo }> | Failure> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const cur = await this.load(eventId);
      if (!cur) return fail('not-found', `draw: event "${eventId}" has no draw`, 'draw');
      if (expected !== undefined && expected !== cur.doc.version)
        return {
          ...fail('stale', `expectedVersion: the draw is at version ${cur.doc.version}, not ${expected}`, 'expectedVersion'),
          currentVersion: cur.doc.version,
        };
      const change = plan(cur.doc, cur.state);
      if ('ok' in change) return change;
      let state = cur.state;
      for (const e of change.entries ?? []) {
        const r = applyDrawEntry(state, e);
        if ('error' in r) return drawFailure(r.error);
        state = r.state;
      }
      const res = await this.opts.store.change(eventId, cur.doc.version, change);
      if (res.status === 'ok') {
        const doc: DrawDoc = {
          ...cur.doc,
          entries: [...cur.doc.entries, ...(change.entries ?? [])],
          settings: change.settings ?? cur.doc.settings,
          version: res.version,
        };
        if (change.entries?.length)
          this.opts.pushes.draw({ eventId, version: res.version, createdAt: cur.doc.createdAt, delta: drawDelta(drawView(cur.state), drawView(state)) });
        return { ok: true, draw: this.info(doc, state) };
      }
    }
    return fail('internal', 'the draw changed too often meanwhile; retry');
  }

  /**
   * Hear a recorded step (wired beside the event service): when the step won a match the draw started, its
   * result enters the draw (once), and autopilot fills the freed table. Never throws (a failure is logged).
   */
  async onMatchStep(push: StatePush): Promise<void> {
    if (push.state.winner === null) return;
    try {
      for (const eventId of await this.opts.events.eventsOfMatch(push.matchId)) {
        await this.serial(eventId, async () => {
          const res = await this.commit(eventId, undefined, (_doc, state) => {
            const m = matchViews(state).find((v) => v.matchId === push.matchId);
            if (!m || m.status !== 'playing') return {};
            const st = push.state;
            const winner = m.players[st.winner === 'A' ? 0 : 1]!;
            return {
              entries: [
                { t: 'result', match: m.id, winner, kind: 'win', score: st.score, innings: Math.max(st.innings[0], st.innings[1]), highRun: st.highRun },
              ],
            };
          });
          if (!res.ok && res.error.code !== 'not-found')
            this.opts.log.warn({ eventId, matchId: push.matchId, err: res.error.message }, 'a won match did not enter the draw');
        });
        void this.fill(eventId);
      }
    } catch (err) {
      this.opts.log.error({ matchId: push.matchId, err: (err as Error).message }, 'draw hook of a recorded step failed');
    }
  }

  /**
   * Autopilot: put the next ready match on each free table (in the event's table order) until no table is
   * free or nothing is ready. Runs in the event's queue; never throws (a failure is logged and the table waits
   * for the next change).
   */
  fill(eventId: string): Promise<void> {
    return this.serial(eventId, async () => {
      try {
        for (let guard = 0; guard < 256; guard++) {
          const cur = await this.load(eventId);
          if (!cur) return;
          if (await this.walkOver(eventId, cur.doc, cur.state)) continue;
          if (!cur.doc.settings.autopilot) return;
          const placed = await this.placeOne(eventId, cur.doc, cur.state);
          if (!placed) return;
        }
      } catch (err) {
        this.opts.log.error({ eventId, err: (err as Error).message }, 'autopilot failed');
      }
    });
  }

  /**
   * With the policy `walkover`: the first ready match with exactly one absent player goes to the present one as a
   * walkover. @returns whether one was recorded.
   */
  private async walkOver(eventId: string, doc: DrawDoc, state: DrawState): Promise<boolean> {
    const absent = doc.settings.absent ?? [];
    if (doc.settings.absentPolicy !== 'walkover' || absent.length === 0) return false;
    const ready = new Set(readyMatches(state));
    const m = matchViews(state).find((v) => ready.has(v.id) && v.players.filter((p) => p !== null && absent.includes(p)).length === 1);
    if (!m) return false;
    const winner = absent.includes(m.players[0]!) ? m.players[1]! : m.players[0]!;
    const res = await this.commit(eventId, doc.version, () => ({ entries: [{ t: 'result', match: m.id, winner, kind: 'walkover' }] }));
    if (res.ok) this.opts.log.info({ eventId, match: m.id, winner }, 'an absent player walked over');
    return res.ok;
  }

  /** Put one ready match on one free table; @returns whether one was placed. */
  private async placeOne(eventId: string, doc: DrawDoc, state: DrawState): Promise<boolean> {
    const event = await this.opts.events.view(eventId);
    if (!event) return false;
    let ready = readyMatches(state);
    if (ready.length === 0) return false;
    const { featured, tvTable } = doc.settings;
    // A pin to a table the event does not have (stored before pins were checked) would wait for ever: no pin.
    const pins = Object.fromEntries(Object.entries(doc.settings.pins).filter(([, t]) => event.tables.some((x) => x.id === t)));
    const absent = new Set(doc.settings.absent ?? []);
    const held = new Set(doc.settings.held ?? []);
    const present = (id: string) =>
      matchViews(state)
        .find((v) => v.id === id)!
        .players.every((p) => p === null || !absent.has(p));
    if (absent.size > 0) ready = ready.filter(present);
    for (const table of event.tables) {
      if (held.has(table.id)) continue;
      if (table.current && event.live[table.current]?.winner === null) continue;
      if (table.current && !event.live[table.current]) continue;
      const fits = (id: string) => (pins[id] ? pins[id] === table.id : tvTable && featured.includes(id) ? table.id === tvTable : true);
      const pick =
        ready.find((id) => pins[id] === table.id) ??
        (table.id === tvTable ? ready.find((id) => featured.includes(id) && fits(id)) : undefined) ??
        ready.find(fits);
      if (!pick) continue;
      const m = matchViews(state).find((v) => v.id === pick)!;
      const probe = applyDrawEntry(state, { t: 'start', match: pick, table: table.id });
      if ('error' in probe) continue;
      const made = await this.opts.events.startDrawMatch(eventId, table.id, [m.players[0]!, m.players[1]!], m.race, drawMatchRef(m));
      if (!made.ok) {
        this.opts.log.warn({ eventId, table: table.id, match: pick, err: made.error.message }, 'autopilot could not start a match');
        continue;
      }
      const res = await this.commit(eventId, doc.version, () => ({ entries: [{ t: 'start', match: pick, table: table.id, matchId: made.match.id }] }));
      if (!res.ok)
        this.opts.log.error(
          { eventId, table: table.id, match: pick, matchId: made.match.id, err: res.error.message },
          'a match went on a table but the draw did not take its start',
        );
      else this.opts.log.info({ eventId, table: table.id, match: pick, matchId: made.match.id }, 'autopilot started a match');
      return res.ok;
    }
    return false;
  }

  /** The entries of the event's draw (tests: each match played once). */
  async entries(eventId: string): Promise<DrawEntry[]> {
    return (await this.opts.store.load(eventId))?.entries ?? [];
  }
}

/**
 * An option given for a format it does not apply to (`groupSize` with single elimination, `trueDouble` with
 * round robin or with a single knockout after groups…; shared/draw/options.ts): `invalid-draw` naming it, so
 * nothing is stored that the draw would silently ignore; null when every option given applies.
 */
function optionNotForFormat(b: Pick<DrawDefinition, 'format' | DrawFormatOption>): Failure | null {
  const given = drawFormatParts(b.format, b.knockout).options;
  for (const option of Object.keys(given) as DrawFormatOption[]) {
    if (b[option] === undefined || given[option]) continue;
    if (option === 'trueDouble' && b.format === 'groups-knockout')
      return fail('invalid-draw', 'trueDouble: for a double elimination knockout (knockout: "double")', 'trueDouble');
    const formats = DRAW_FORMATS.filter((f) => drawFormatParts(f, 'double').options[option]).map((f) => DRAW_FORMAT_NAMES[f]);
    return fail('invalid-draw', `${option}: not an option of ${DRAW_FORMAT_NAMES[b.format]} (it is for ${formats.join(' and ')})`, option);
  }
  return null;
}
