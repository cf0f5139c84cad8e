/** zod schemas of the shot clock's requests (server only; the types are in shot-clock.ts). */
import { z } from 'zod';
import {
  CLOCK_ACTIONS,
  CLOCK_PRESETS,
  CLOCK_SECONDS_MAX,
  shotClockSettingsProblem,
  type ShotClockAction,
  type ShotClockSettings,
} from '../../shared/shot-clock';
import { RulesError, type ErrorCode } from '../../shared/protocol/errors';
import { SAFE_ID } from '../../shared/protocol/limits';
import { describeIssue } from './zod-issues';
import type { ShotClockActionRequest, ShotClockRequest, ShotClockSettingsBody, TimeRequest } from '../../shared/protocol/shot-clock';

const seconds = z.number().int().min(0).max(CLOCK_SECONDS_MAX);
const matchId = z.string().regex(SAFE_ID, 'must be 1–64 letters, digits, _ or -');

/** Whole settings; their meaning (minimums, warnings) is checked by `shotClockSettingsProblem`. */
export const shotClockSettingsSchema = z.strictObject({
  shotSeconds: seconds,
  firstShotSeconds: seconds,
  pushOutSeconds: seconds,
  extensionSeconds: seconds,
  extensionsPerPlayer: z.number().int().min(0).max(99),
  extensionPeriod: z.discriminatedUnion('per', [
    z.strictObject({ per: z.literal('rack') }),
    z.strictObject({ per: z.literal('racks'), racks: z.number().int().min(1).max(999) }),
    z.strictObject({ per: z.literal('match') }),
  ]),
  warningSeconds: seconds,
  urgentSeconds: seconds,
  showFromSeconds: seconds.nullable(),
  autoStart: z.boolean(),
  matchClock: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('off') }),
    z.strictObject({ kind: z.literal('played') }),
    z.strictObject({ kind: z.literal('limit'), minutes: z.number().int().min(1).max(1440), warningMinutes: z.number().int().min(0).max(1440) }),
  ]),
}) satisfies z.ZodType<ShotClockSettings>;

/** `PUT /api/matches/<id>/clock`, a match's `clock` and an event's `defaults.clock`: a preset or whole settings. */
export const shotClockSettingsBodySchema = z.union([
  z.strictObject({ preset: z.enum(['pro', 'league', 'off']) }),
  z.strictObject({ settings: shotClockSettingsSchema }),
]) satisfies z.ZodType<ShotClockSettingsBody>;

/** The `<action>` of `POST …/clock/<action>` and of Socket.IO `shotClockAction`. */
export const shotClockActionSchema = z.enum(CLOCK_ACTIONS as [ShotClockAction, ...ShotClockAction[]]);
/** The clock period (`clock.shot`) a press was meant for: a press for an earlier one changes nothing. */
export const periodSchema = z.number().int().min(0);

/** `time`: `{}`, or nothing at all (`emitWithAck('time')`). */
export const timeSchema = z.strictObject({}).default({}) satisfies z.ZodType<TimeRequest>;
/** Socket.IO `shotClock`: read a match's clock. */
export const shotClockReadSchema = z.strictObject({ matchId }) satisfies z.ZodType<ShotClockRequest>;
/** Socket.IO `shotClockAction`, on a connection opened with the scorer token. */
export const shotClockActionRequestSchema = z.strictObject({
  matchId,
  action: shotClockActionSchema,
  period: periodSchema.optional(),
}) satisfies z.ZodType<ShotClockActionRequest>;
/** REST `POST …/clock/:action` body: empty, or `{period}`. */
export const shotClockActionBodySchema = z.strictObject({ period: periodSchema.optional() });

/**
 * A clock choice that gives both `preset` and `settings` (one or the other is meant): the refusal's field and words
 * under `root` (`''` for a request body), else null.
 */
export function bothClockChoices(input: unknown, root: string): { field: string; message: string } | null {
  if (input === null || typeof input !== 'object' || !('preset' in input) || !('settings' in input)) return null;
  const field = root ? `${root}.settings` : 'settings';
  return { field, message: `${field}: give either preset or settings, not both` };
}

/**
 * A clock choice as `PUT /api/matches/:id/clock` takes it (`{preset: "pro" | "league" | "off"}` or `{settings}`),
 * given as the `clock` field of a match's creation (`POST /api/matches`) or of an event's `defaults`: checked in
 * shape (this schema) and in meaning (`shotClockSettingsProblem`).
 * @returns the settings to turn the clock on with, or null for `off`.
 * @throws RulesError `code` naming the field under `root` (`clock.settings.shotSeconds`, `defaults.clock.preset`).
 */
export function parseClockChoice(input: unknown, root: string, code: ErrorCode): ShotClockSettings | null {
  const both = bothClockChoices(input, root);
  if (both) throw new RulesError(code, both.message, both.field);
  const res = shotClockSettingsBodySchema.safeParse(input);
  if (!res.success) {
    const { field, message } = describeIssue(res.error, root);
    throw new RulesError(code, message, field);
  }
  const b = res.data;
  if ('preset' in b) return b.preset === 'off' ? null : CLOCK_PRESETS[b.preset];
  const problem = shotClockSettingsProblem(b.settings);
  if (problem) {
    const field = problem.field.replace(/^clock/, `${root}.settings`);
    throw new RulesError(code, `${field}: ${problem.message}`, field);
  }
  return b.settings;
}
