/**
 * The production assistant's service (issue 28): a match's highlights, its YouTube chapters aligned to its
 * table's stream start, and its talking points, from the match's stored log (shared/highlights.ts,
 * shared/talking-points.ts) and its event (the other matches' best run, the two players' earlier meetings, the
 * table's stream start kept in the event's document). Reads only; the stream start is written through the event
 * service (`setStreamStart`), so it is as durable as the event on every backend.
 */
import type { Clock } from '../clock';
import { systemClock } from '../clock';
import type { EventService } from '../events/service';
import type { MatchService } from '../matches/service';
import { fail, type Failure } from '../failure';
import { withStreamStart } from '../events/event-docs';
import {
  chapters,
  chaptersText,
  type Highlight,
  highlightOptions,
  highlights,
  type HighlightOptions,
  highlightTitle,
  type TimedStep,
} from '../../shared/highlights';
import { type EventFacts, NO_EVENT, type TalkingPoint, talkingPointDefaults, talkingPoints } from '../../shared/talking-points';
import type { AssistantLang } from '../../shared/assistant-words';
import type { EventInfo, EventTable, StreamStart, StreamStartSource } from '../../shared/protocol/event';
import type { MatchSetup, Pair } from '../../shared/protocol/setup';
import { RulesError } from '../../shared/protocol/errors';

/** What the assistant reads of a match: set-up, rules version, timed log, creation time and its event (if any). */
interface MatchContext {
  setup: MatchSetup;
  rulesVersion: number;
  steps: TimedStep[];
  version: number;
  /** When the match was created, ms since the epoch. */
  createdAt: number;
  event: EventInfo | null;
  /** The table of the event the match is (or was) on. */
  table: EventTable | null;
}

/** `GET /api/matches/:id/highlights.json`. */
export interface HighlightsAnswer {
  matchId: string;
  version: number;
  options: HighlightOptions;
  /** The event table the match is (or was) on, or null: where its stream start is set. */
  table: { eventId: string; table: string } | null;
  /** The table's stream start, when known (chapters are aligned to it). */
  streamStart: StreamStart | null;
  highlights: (Highlight & { title: string })[];
}

/** `GET /api/matches/:id/talking-points.json`. */
export interface TalkingPointsAnswer {
  matchId: string;
  version: number;
  lang: AssistantLang;
  points: TalkingPoint[];
}

export interface AssistantServiceOptions {
  matches: MatchService;
  events: EventService;
  clock?: Clock;
}

/** Talking-point answers kept (match, version, language): every dashboard and overlay asks at each new version. */
const ANSWERS_KEPT = 256;

export class AssistantService {
  /** The latest answers by `matchId version lang`, oldest first (a Map keeps insertion order). */
  private readonly answers = new Map<string, TalkingPointsAnswer>();
  private readonly matches: MatchService;
  private readonly events: EventService;
  private readonly clock: Clock;

  constructor(opts: AssistantServiceOptions) {
    this.matches = opts.matches;
    this.events = opts.events;
    this.clock = opts.clock ?? systemClock;
  }

  /** The match's context, or `not-found` naming `matchId`. */
  private async context(id: string): Promise<MatchContext | Failure> {
    const cur = await this.matches.current(id);
    const log = cur && (await this.matches.steps(id));
    const createdAt = cur && (await this.matches.createdAt(id));
    if (!cur || !log || createdAt === null) return fail('not-found', `matchId: no match "${id}"`, 'matchId');
    let event: EventInfo | null = null;
    let table: EventTable | null = null;
    for (const eventId of await this.events.eventsOfMatch(id)) {
      const view = await this.events.view(eventId);
      const entry = view?.matches.find((m) => m.id === id);
      if (view && entry) {
        event = view;
        table = view.tables.find((t) => t.id === entry.table) ?? null;
        break;
      }
    }
    return {
      setup: cur.setup,
      rulesVersion: cur.rulesVersion,
      steps: log.steps.map((s) => ({ step: s.step, at: s.at })),
      version: log.version,
      createdAt,
      event,
      table,
    };
  }

  /**
   * The best run of the event's other matches (those put on a table before this one, for highlights; all of
   * them, for talking points) and the finished earlier meetings of the same two players.
   */
  private async eventFacts(id: string, ctx: MatchContext, earlierOnly: boolean): Promise<EventFacts> {
    const ev = ctx.event;
    if (!ev) return NO_EVENT;
    const self = ev.matches.find((m) => m.id === id);
    const others = ev.matches.filter((m) => m.id !== id && (!earlierOnly || !self || m.addedAt <= self.addedAt));
    let highRun: EventFacts['highRun'] = null;
    const meetings: EventFacts['meetings'] = [];
    const same = (p: Pair<string>) => new Set([...p, ...ctx.setup.players]).size === 2;
    for (const m of others) {
      const st = await this.matches.currentState(m.id);
      if (!st) continue;
      const s = st.state;
      for (const i of [0, 1] as const) {
        if (!highRun || s.highRun[i] > highRun.run) highRun = { run: s.highRun[i], name: st.setup.shortNames?.[i] ?? s.names[i], matchId: m.id };
      }
      if (s.winner && same(s.names) && (!self || m.addedAt < self.addedAt))
        meetings.push({ matchId: m.id, players: s.names, score: s.score, winner: s.winner });
    }
    return { highRun: highRun && highRun.run > 0 ? highRun : null, meetings };
  }

  /**
   * The highlights of match `id` with the run threshold and comeback margin from untrusted query values.
   * Refusals: `not-found` (matchId); `invalid-request` naming `threshold` or `comebackFrom` (out of range).
   */
  async highlights(id: string, threshold: unknown, comebackFrom: unknown, lang: AssistantLang): Promise<HighlightsAnswer | Failure> {
    const ctx = await this.context(id);
    if ('ok' in ctx) return ctx;
    const opts = optionsOrFailure(() => highlightOptions(ctx.setup.discipline, threshold, comebackFrom));
    if ('ok' in opts) return opts;
    const facts = await this.eventFacts(id, ctx, true);
    const options = { ...opts, eventHighRun: facts.highRun?.run ?? 0 };
    const marks = highlights(ctx.setup, ctx.steps, options, ctx.rulesVersion);
    const names = displayNames(ctx.setup);
    return {
      matchId: id,
      version: ctx.version,
      options,
      table: ctx.event && ctx.table ? { eventId: ctx.event.id, table: ctx.table.id } : null,
      streamStart: ctx.table?.streamStart ?? null,
      highlights: marks.map((h) => ({ ...h, title: highlightTitle(h, names, lang, ctx.setup.discipline) })),
    };
  }

  /**
   * The YouTube chapters of match `id` as text, aligned to `start` (untrusted: ms since the epoch or an ISO
   * date-time) when given, else to the stream start its table's overlay or producer reported.
   * Refusals: `not-found` (matchId); `invalid-request` naming `start` (not a time, in the future, before the
   * match was created), `threshold` or `comebackFrom`; `no-stream-start` when none is known and none given.
   */
  async chapters(id: string, start: unknown, threshold: unknown, comebackFrom: unknown, lang: AssistantLang): Promise<{ ok: true; text: string } | Failure> {
    const ctx = await this.context(id);
    if ('ok' in ctx) return ctx;
    let at: number;
    if (start !== undefined && start !== '') {
      const parsed = parseTime(start, 'start');
      if ('ok' in parsed) return parsed;
      const now = this.clock.now();
      if (parsed.at > now + 5_000) return fail('invalid-request', `start: ${iso(parsed.at)} is in the future (server time ${iso(now)})`, 'start');
      if (parsed.at < ctx.createdAt)
        return fail('invalid-request', `start: ${iso(parsed.at)} is before the match was created (${iso(ctx.createdAt)})`, 'start');
      at = parsed.at;
    } else if (ctx.table?.streamStart) at = ctx.table.streamStart.at;
    else
      return fail(
        'no-stream-start',
        ctx.table
          ? `start: no stream start is known for table ${ctx.table.name} (the table overlay in OBS reports it; or PUT /api/events/${ctx.event!.id}/tables/${ctx.table.id}/stream-start, or add ?start=)`
          : 'start: the match is on no event table; give the stream start as ?start=<ISO date-time or ms since the epoch>',
        'start',
      );
    const h = await this.highlights(id, threshold, comebackFrom, lang);
    if ('ok' in h) return h;
    return {
      ok: true,
      text: chaptersText(chapters(h.highlights, { streamStart: at, names: displayNames(ctx.setup), lang, discipline: ctx.setup.discipline })),
    };
  }

  /**
   * The talking points of match `id` in `lang`, computed once per version and language (every page following the
   * match asks at each new version; an event fact changing between two steps shows from the next step).
   * Refusals: `not-found` (matchId).
   */
  async talkingPoints(id: string, lang: AssistantLang): Promise<TalkingPointsAnswer | Failure> {
    const ctx = await this.context(id);
    if ('ok' in ctx) return ctx;
    const key = `${id} ${ctx.version} ${lang}`;
    const kept = this.answers.get(key);
    if (kept) return kept;
    const facts = await this.eventFacts(id, ctx, false);
    const points = talkingPoints(ctx.setup, ctx.steps, facts, talkingPointDefaults(ctx.setup.discipline, lang), ctx.rulesVersion);
    const answer: TalkingPointsAnswer = { matchId: id, version: ctx.version, lang, points };
    this.answers.set(key, answer);
    if (this.answers.size > ANSWERS_KEPT) this.answers.delete(this.answers.keys().next().value!);
    return answer;
  }

  /**
   * Set table `tableId`'s stream start (organiser `token`) from an untrusted time: what the table overlay in OBS
   * reports, or the producer's. Refusals: `not-found` (eventId, table), `unauthorized` / `forbidden` (token),
   * `invalid-request` naming `at` (not a time, in the future, before the event was created); nothing changed.
   */
  async setStreamStart(
    eventId: string,
    token: string | undefined,
    tableId: string,
    at: unknown,
    source: StreamStartSource,
    expected?: number,
  ): Promise<{ ok: true; event: EventInfo; streamStart: StreamStart } | Failure> {
    const parsed = parseTime(at, 'at');
    if ('ok' in parsed) return parsed;
    const now = this.clock.now();
    const start: StreamStart = { at: parsed.at, source, setAt: now };
    const c = await this.events.change(eventId, token, expected, (d) => withStreamStart(d, tableId, start, now));
    return c.ok ? { ok: true, event: c.event, streamStart: start } : c;
  }
}

/** The names chapters and titles show: the short names when the set-up has them. */
function displayNames(setup: MatchSetup): Pair<string> {
  return [setup.shortNames?.[0] ?? setup.players[0], setup.shortNames?.[1] ?? setup.players[1]];
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A time from ms since the epoch (a number or its digits) or an ISO 8601 date-time with an offset; `invalid-request` naming `field` otherwise. */
export function parseTime(raw: unknown, field: string): { at: number } | Failure {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0) return { at: raw };
  if (typeof raw === 'string' && /^\d{1,15}$/.test(raw)) return { at: Number(raw) };
  if (typeof raw === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(raw)) {
    const at = Date.parse(raw);
    if (Number.isFinite(at)) return { at };
  }
  return fail(
    'invalid-request',
    `${field}: must be a time, as ms since the epoch or an ISO 8601 date-time with its offset (2026-12-03T18:00:00Z); got ${JSON.stringify(raw)?.slice(0, 40)}`,
    field,
  );
}

/** The options, or the RulesError they were refused with as a failure. */
function optionsOrFailure(fn: () => HighlightOptions): HighlightOptions | Failure {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RulesError) return { ok: false, error: e.toJSON() };
    throw e;
  }
}
