/**
 * Zod schemas of the event REST bodies and the table/event Socket.IO envelopes typed in `event.ts`, for the
 * server (pages never import this file: it pulls in zod). Every object is strict (an unknown key is refused
 * by name), every text is trimmed, capped and free of control and text-direction characters, every list is
 * capped (EVENT_LIMITS). `parseEventBody` turns the first issue into `invalid-event` naming the field.
 */
import { z } from 'zod';
import { RulesError, type ErrorCode } from '../../shared/protocol/errors';
import {
  EVENT_LIMITS,
  STREAM_START_SOURCES,
  type SubscribeEventRequest,
  type SubscribeTableRequest,
  type ThemePreset,
  type UnsubscribeEventRequest,
  type UnsubscribeTableRequest,
} from '../../shared/protocol/event';
import { SAFE_ID, TABLE_ID } from '../../shared/protocol/limits';
import { NAME_MAX, SHORT_NAME_MAX } from '../../shared/protocol/limits';
import { countryCode, displayText as safeText } from './setup-schemas';
import { shotClockSettingsBodySchema } from './shot-clock-schemas';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import { describeIssue } from './zod-issues';

/** Ids in URLs: event ids and match ids (12 URL-safe characters when made here; 1–64 accepted). */
const idSchema = z.string().regex(SAFE_ID, 'must be 1–64 letters, digits, _ or -');
/** A table id: lower-case letters, digits and hyphens, 1–32, starting with a letter or digit. */
const tableIdSchema = z.string().regex(TABLE_ID, 'must be 1–32 lower-case letters, digits or hyphens (e.g. table-1, tv-table)');
/** Optional compare-and-set: the change applies only if the event is at this version (else `stale`). */
const expectedVersion = z.number().int().min(0).optional();

/** A calendar day, `YYYY-MM-DD`, that exists. */
const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'is not a calendar day');

const hex = z.string().regex(/^[0-9a-fA-F]{6}$/, 'must be a 6-digit hex colour without # (e.g. ff8800)');
const themeSchema = z.strictObject({
  theme: z.enum(['dark', 'light']).optional(),
  layout: z.enum(['bar', 'corner']).optional(),
  bg: hex.optional(),
  fg: hex.optional(),
  accent: hex.optional(),
  a: hex.optional(),
  b: hex.optional(),
}) satisfies z.ZodType<ThemePreset>;

/**
 * Discipline defaults; `options` and `targets` are checked by the set-up parser, `clock`'s meaning by the shot
 * clock's settings check (both in `checkDefaults`, server/events/event-docs.ts).
 */
const defaultsSchema = z.strictObject({
  discipline: z.enum(['14-1', 'rotation']),
  ruleset: z.enum(['nba', 'wpa']).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  targets: z.tuple([z.number().int().min(1).max(10000), z.number().int().min(1).max(10000)]).optional(),
  clock: shotClockSettingsBodySchema.optional(),
});

/** A roster player: full name, short display name, country code, rating (shown only). */
export const playerSchema = z.strictObject({
  name: safeText(NAME_MAX),
  short: safeText(SHORT_NAME_MAX).optional(),
  country: countryCode.optional(),
  rating: z.number().min(0).max(100000).optional(),
});

/** A table as given: its name, or `{name, id?}`. */
export const tableInputSchema = z.union([
  safeText(EVENT_LIMITS.tableName),
  z.strictObject({ name: safeText(EVENT_LIMITS.tableName), id: tableIdSchema.optional() }),
]);

/** `POST /api/events`. */
export const eventCreateSchema = z.strictObject({
  name: safeText(EVENT_LIMITS.name),
  date: dateSchema,
  defaults: defaultsSchema.optional(),
  theme: themeSchema.optional(),
  tables: z.array(tableInputSchema).min(1, 'an event needs at least one table').max(EVENT_LIMITS.tables, `at most ${EVENT_LIMITS.tables} tables`),
  roster: z.array(playerSchema).max(EVENT_LIMITS.roster, `at most ${EVENT_LIMITS.roster} players`).optional(),
});

/** `PATCH /api/events/<id>`. */
export const eventPatchSchema = z.strictObject({
  name: safeText(EVENT_LIMITS.name).optional(),
  date: dateSchema.optional(),
  defaults: defaultsSchema.optional(),
  theme: themeSchema.optional(),
  expectedVersion,
});

/** `POST /api/events/<id>/players`. */
export const playersAddSchema = z.strictObject({
  players: z.array(playerSchema).min(1, 'name at least one player').max(EVENT_LIMITS.roster, `at most ${EVENT_LIMITS.roster} players`),
  expectedVersion,
});

/** `PATCH /api/events/<id>/players/<playerId>`: null clears an optional field. */
export const playerPatchSchema = z.strictObject({
  name: safeText(NAME_MAX).optional(),
  short: safeText(SHORT_NAME_MAX).nullable().optional(),
  country: countryCode.nullable().optional(),
  rating: z.number().min(0).max(100000).nullable().optional(),
  expectedVersion,
});

/** `POST /api/events/<id>/tables`. */
export const tableAddSchema = z.strictObject({ name: safeText(EVENT_LIMITS.tableName), id: tableIdSchema.optional(), expectedVersion });

/**
 * `POST /api/events/<id>/tables/<table>/matches`: a new match for the table. Players from the roster
 * (`playerIds`) or named in `setup.players`; `setup` overrides the event's defaults (checked by the set-up
 * parser); `start: true` puts it on the table now, else it waits as the table's next match.
 */
export const tableMatchSchema = z.strictObject({
  playerIds: z.tuple([z.string().min(1).max(16), z.string().min(1).max(16)]).optional(),
  setup: z.record(z.string(), z.unknown()).optional(),
  start: z.boolean().optional(),
  expectedVersion,
});

/** `POST /api/events/<id>/tables/<table>/assign`: an existing match as the table's next (or, with start, current) match. */
export const assignSchema = z.strictObject({ matchId: idSchema, start: z.boolean().optional(), expectedVersion });

/** Bodies that carry nothing but an optional `expectedVersion` (start, clear next, cards); an empty body is fine. */
export const versionOnlySchema = z.strictObject({ expectedVersion });

/** Bodies that carry nothing (a table's scorer token, issued or revoked); an empty body is fine, any field is refused by name. */
export const noBodySchema = z.strictObject({});
/**
 * `PUT /api/events/:id/tables/:table/stream-start`: when the stream started, ms since the epoch or an ISO 8601
 * date-time with its offset (`2026-12-03T18:00:00Z`), and where the time came from (default `producer`).
 */
export const streamStartSchema = z.strictObject({
  at: z.union([z.number().int().min(0), z.iso.datetime({ offset: true })]),
  source: z.enum(STREAM_START_SOURCES).optional(),
  expectedVersion,
});

const protocol = z.literal(PROTOCOL_VERSION);
/** Socket.IO `subscribeTable`. */
export const subscribeTableSchema = z.strictObject({ protocol, eventId: idSchema, table: tableIdSchema }) satisfies z.ZodType<SubscribeTableRequest>;
/** Socket.IO `unsubscribeTable`: unknown keys dropped (leaving means the same in every version). */
export const unsubscribeTableSchema = z.object({ eventId: idSchema, table: tableIdSchema }) satisfies z.ZodType<UnsubscribeTableRequest>;
/** Socket.IO `subscribeEvent`. */
export const subscribeEventSchema = z.strictObject({ protocol, eventId: idSchema }) satisfies z.ZodType<SubscribeEventRequest>;
/** Socket.IO `unsubscribeEvent`. */
export const unsubscribeEventSchema = z.object({ eventId: idSchema }) satisfies z.ZodType<UnsubscribeEventRequest>;

/**
 * Parse a REST body with `schema`.
 * @returns the value, or throws RulesError `code` (default `invalid-event`) naming the field at fault (an
 *   unknown key is named itself: `tables.0.colour`) with the reason.
 */
export function parseEventBody<T>(schema: z.ZodType<T>, input: unknown, code: ErrorCode = 'invalid-event'): T {
  const res = schema.safeParse(input ?? {});
  if (res.success) return res.data;
  const issue = res.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const field = [...issue.path, key].join('.');
    throw new RulesError(code, `${field}: unknown field`, field);
  }
  const { field, message } = describeIssue(res.error, '');
  throw new RulesError(code, field ? message : `body: ${issue.message}`, field || 'body');
}
