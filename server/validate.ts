/**
 * Envelope validation of incoming messages before anything reaches the engine: zod schemas from
 * shared/protocol/wire, each failure turned into `invalid-step` naming the field (the step itself is
 * validated by the engine's `parseStep`). Also the size cap of a message.
 */
import type { z } from 'zod';
import { describeIssue } from '../shared/protocol/steps';
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
  return fail('invalid-step', field ? message : `request: ${res.error.issues[0]?.message ?? 'invalid'}`, field || 'request');
}

/** Byte size of the JSON of `input`, or Infinity when it cannot be serialised. */
export function jsonBytes(input: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(input) ?? '');
  } catch {
    return Infinity;
  }
}

/** Validate a Socket.IO `record` request (`too-large` over MAX_MESSAGE_BYTES). */
export function parseRecordMessage(input: unknown): { ok: true; value: RecordEnvelope } | Failure {
  if (jsonBytes(input) > MAX_MESSAGE_BYTES) return fail('too-large', `request: over ${MAX_MESSAGE_BYTES} bytes`, 'request');
  return check(recordSchema, input) as { ok: true; value: RecordEnvelope } | Failure;
}

/** Validate a REST `POST /api/matches/:id/events` body. */
export function parseRecordBody(input: unknown): { ok: true; value: Omit<RecordEnvelope, 'matchId'> } | Failure {
  return check(restRecordSchema, input) as { ok: true; value: Omit<RecordEnvelope, 'matchId'> } | Failure;
}

/** Validate a Socket.IO `subscribe` request. */
export function parseSubscribeMessage(input: unknown): { ok: true; value: SubscribeEnvelope } | Failure {
  if (jsonBytes(input) > MAX_MESSAGE_BYTES) return fail('too-large', `request: over ${MAX_MESSAGE_BYTES} bytes`, 'request');
  return check(subscribeSchema, input);
}
