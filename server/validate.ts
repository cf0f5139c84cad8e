/**
 * Envelope validation of incoming messages before anything reaches the engine: zod schemas from
 * shared/protocol/wire, each failure turned into `invalid-request` naming the field (`matchId`, `eventId`,
 * `expectedVersion`, or `request` for a non-object or an unknown key). The step itself is validated by the
 * engine's `parseStep` (`invalid-step`). Also the size cap of a message.
 */
import type { z } from 'zod';
import { RulesError } from '../shared/protocol/errors';
import { describeIssue, parseStep } from '../shared/protocol/steps';
import { recordSchema, subscribeSchema } from '../shared/protocol/wire';
import { fail, type Failure } from './matches';

/** Largest accepted message (its JSON), in bytes: a step is well under 1 KB. */
export const MAX_MESSAGE_BYTES = 8 * 1024;

const restRecordSchema = recordSchema.omit({ matchId: true });

export type RecordEnvelope = { matchId: string; eventId: string; expectedVersion?: number; step: unknown };
export type SubscribeEnvelope = z.infer<typeof subscribeSchema>;

function check<T>(schema: z.ZodType<T>, input: unknown): { ok: true; value: T } | Failure {
  const res = schema.safeParse(input);
  if (res.success) return { ok: true, value: res.data };
  const { field, message } = describeIssue(res.error, '');
  // The envelope's only objection to the step is that it is missing: that is the step's error, in the engine's words.
  if (field === 'step') return stepMissing();
  return fail('invalid-request', field ? message : `request: ${res.error.issues[0]?.message ?? 'invalid'}`, field || 'request');
}

/** `invalid-step` for a request without a step, with the message `parseStep` gives for one. */
function stepMissing(): Failure {
  try {
    parseStep(undefined);
  } catch (err) {
    if (err instanceof RulesError) return { ok: false, error: err.toJSON() };
  }
  return fail('invalid-step', 'step: missing', 'step');
}

/** Byte size of the JSON of `input`, or Infinity when it cannot be serialised. */
export function jsonBytes(input: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(input) ?? '');
  } catch {
    return Infinity;
  }
}

/** Validate a Socket.IO `record` request: `too-large` over MAX_MESSAGE_BYTES, else `invalid-request` naming the field. */
export function parseRecordMessage(input: unknown): { ok: true; value: RecordEnvelope } | Failure {
  if (jsonBytes(input) > MAX_MESSAGE_BYTES) return fail('too-large', `request: over ${MAX_MESSAGE_BYTES} bytes`, 'request');
  return check(recordSchema, input) as { ok: true; value: RecordEnvelope } | Failure;
}

/** Validate a REST `POST /api/matches/:id/events` body: `invalid-request` naming the field. */
export function parseRecordBody(input: unknown): { ok: true; value: Omit<RecordEnvelope, 'matchId'> } | Failure {
  return check(restRecordSchema, input) as { ok: true; value: Omit<RecordEnvelope, 'matchId'> } | Failure;
}

/** Validate a Socket.IO `subscribe` request: `too-large` over MAX_MESSAGE_BYTES, else `invalid-request` naming the field. */
export function parseSubscribeMessage(input: unknown): { ok: true; value: SubscribeEnvelope } | Failure {
  if (jsonBytes(input) > MAX_MESSAGE_BYTES) return fail('too-large', `request: over ${MAX_MESSAGE_BYTES} bytes`, 'request');
  return check(subscribeSchema, input);
}
