/**
 * Zod schemas of the wire envelopes typed in `wire.ts`, for the server (pages never import this file: it
 * pulls in zod). Each schema's output is checked at compile time to be exactly its wire type, so the two
 * cannot drift apart. The step inside a record is left `unknown` here: `parseStep` (step-schemas.ts) checks it
 * and names the field (`invalid-step`) before the engine sees it.
 */
import { z } from 'zod';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import { DETAILS, type Detail, type RecordBody, type RecordRequest, type SubscribeRequest, type UnsubscribeRequest } from '../../shared/protocol/wire';
import { unsafeTextReason } from '../../shared/protocol/limits';

const matchId = z.string().min(1).max(64);
/** Exactly this build's protocol version; an issue on this field is answered `protocol-mismatch`. */
const protocol = z.literal(PROTOCOL_VERSION);

/** Socket.IO `subscribe`. */
export const subscribeSchema = z.strictObject({
  protocol,
  matchId,
  sinceVersion: z.number().int().min(0).optional(),
  detail: z.enum(DETAILS as [Detail, ...Detail[]]).optional(),
  pages: z.literal(true).optional(),
});

/** Socket.IO `unsubscribe`: unknown keys are dropped (leaving a room means the same in every version). */
export const unsubscribeSchema = z.object({ matchId });

/** A step's idempotency key: 1–100 characters, none of them control or text-direction characters. */
const stepId = z
  .string()
  .min(1)
  .max(100)
  .superRefine((v, ctx) => {
    const why = unsafeTextReason(v);
    if (why) ctx.addIssue({ code: 'custom', message: `${why} (it is stored in the log and shown to operators)` });
  });

/** The fields a record request shares with the REST body, `eventId` being the deprecated name of `stepId` (protocol 4 only). */
const recordFields = {
  stepId: stepId.optional(),
  eventId: stepId.optional(),
  expectedVersion: z.number().int().min(0).optional(),
  step: z.unknown(),
};

/**
 * One `stepId` from `stepId` and its deprecated alias `eventId`: either may be given, both only if equal.
 * The issue names the field at fault: `stepId` when neither is given, `eventId` when the two differ.
 */
function oneStepId<T extends { stepId?: string; eventId?: string }>(v: T, ctx: z.RefinementCtx): Omit<T, 'stepId' | 'eventId'> & { stepId: string } {
  const { stepId: id, eventId: alias, ...rest } = v;
  if (id === undefined && alias === undefined) {
    ctx.addIssue({ code: 'custom', path: ['stepId'], message: 'Invalid input: expected string, received undefined' });
    return z.NEVER;
  }
  if (id !== undefined && alias !== undefined && id !== alias) {
    ctx.addIssue({ code: 'custom', path: ['eventId'], message: `the deprecated name of stepId, so it must equal stepId ("${id}") or be left out` });
    return z.NEVER;
  }
  return { ...rest, stepId: (id ?? alias)! };
}

/** REST `POST /api/matches/:id/steps` body; the shared part of `record`. */
export const recordBodySchema = z.strictObject({ protocol: protocol.optional(), ...recordFields }).transform(oneStepId);

/** Socket.IO `record`: the record body plus `matchId`, with `protocol` required. */
export const recordSchema = z.strictObject({ protocol, matchId, ...recordFields }).transform(oneStepId);

/** True when A and B are assignable both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Compile-time: each schema's output is its wire type (with the step still unknown). */
export type WireSchemasMatchTypes = [
  Assert<Same<z.output<typeof subscribeSchema>, SubscribeRequest>>,
  Assert<Same<z.output<typeof unsubscribeSchema>, UnsubscribeRequest>>,
  Assert<Same<z.output<typeof recordBodySchema>, RecordBody<unknown>>>,
  Assert<Same<z.output<typeof recordSchema>, RecordRequest<unknown>>>,
];
