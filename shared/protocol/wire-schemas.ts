/**
 * Zod schemas of the wire envelopes typed in `wire.ts`, for the server (pages never import this file: it
 * pulls in zod). Each schema's output is checked at compile time to be exactly its wire type, so the two
 * cannot drift apart. The step inside a record is left `unknown` here: the engine's `parseStep` checks it
 * and names the field (`invalid-step`).
 */
import { z } from 'zod';
import { DETAILS, PROTOCOL_VERSION, type Detail, type RecordBody, type RecordRequest, type SubscribeRequest, type UnsubscribeRequest } from './wire';
import { UNSAFE_TEXT } from './limits';

const matchId = z.string().min(1).max(64);
/** Exactly this build's protocol version; an issue on this field is answered `protocol-mismatch`. */
const protocol = z.literal(PROTOCOL_VERSION);

/** Socket.IO `subscribe`. */
export const subscribeSchema = z.strictObject({
  protocol,
  matchId,
  sinceVersion: z.number().int().min(0).optional(),
  detail: z.enum(DETAILS as [Detail, ...Detail[]]).optional(),
});

/** Socket.IO `unsubscribe`: unknown keys are dropped (leaving a room means the same in every version). */
export const unsubscribeSchema = z.object({ matchId });

/** REST `POST /api/matches/:id/events` body; the shared part of `record`. */
export const recordBodySchema = z.strictObject({
  protocol: protocol.optional(),
  eventId: z
    .string()
    .min(1)
    .max(100)
    .refine((v) => !UNSAFE_TEXT.test(v), 'must not contain control or text-direction characters (it is stored in the log and shown to operators)'),
  expectedVersion: z.number().int().min(0).optional(),
  step: z.unknown(),
});

/** Socket.IO `record`: the record body plus `matchId`, with `protocol` required. */
export const recordSchema = recordBodySchema.extend({ protocol, matchId });

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
