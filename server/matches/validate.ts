/**
 * Envelope validation of incoming messages before anything reaches the engine, one parse for every
 * envelope (Socket.IO `subscribe` / `unsubscribe` / `record` and the REST record body) with the schemas of
 * server/protocol/wire-schemas:
 * - a missing, older or newer `protocol` version is `protocol-mismatch` ("reload the page"), checked
 *   before anything else about the message, so an old page hears why rather than which field it got wrong;
 * - any other failure is `invalid-request` naming the field (`matchId`, `stepId`, `expectedVersion`,
 *   `sinceVersion`, or `request` for a non-object or an unknown key);
 * - a missing step is the engine's `invalid-step` (the step itself is checked by `parseStep`).
 * Also the size cap of a Socket.IO message.
 */
import type { z } from 'zod';
import { RulesError } from '../../shared/protocol/errors';
import { parseStep } from '../protocol/step-schemas';
import { describeIssue } from '../protocol/zod-issues';
import { PROTOCOL_VERSION } from '../../shared/protocol/wire';
import { fail, type Failure } from '../failure';

/** Largest accepted Socket.IO message (its JSON), in bytes: a step is well under 1 KB. */
export const MAX_MESSAGE_BYTES = 8 * 1024;

/** Byte size of the JSON of `input`, or Infinity when it cannot be serialised. */
export function jsonBytes(input: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(input) ?? '');
  } catch {
    return Infinity;
  }
}

/** `too-large` when the JSON of a Socket.IO message is over MAX_MESSAGE_BYTES, else null. */
export function oversize(input: unknown): Failure | null {
  return jsonBytes(input) > MAX_MESSAGE_BYTES ? fail('too-large', `request: over ${MAX_MESSAGE_BYTES} bytes`, 'request') : null;
}

/** Keys no request may carry: they name JavaScript's object machinery, and parsers drop or misread them. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The dotted path of the first `__proto__`, `constructor` or `prototype` key anywhere in `input` (a JSON value:
 * own keys only, depth ≤ 64), or null when there is none. Such a key is refused by name instead of being
 * dropped silently by a schema.
 */
export function forbiddenKey(input: unknown, path = '', depth = 0, skip?: string): string | null {
  if (input === null || typeof input !== 'object' || depth > 64) return null;
  for (const key of Object.keys(input)) {
    const at = path ? `${path}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) return at;
    if (depth === 0 && key === skip) continue;
    const inner = forbiddenKey((input as Record<string, unknown>)[key], at, depth + 1);
    if (inner) return inner;
  }
  return null;
}

/**
 * `invalid-request` (or `code`) naming a forbidden key of `input`, else null. The `step` of a record is left
 * to the match service, which checks it after the step parse (`invalid-step`), so a step's own faults come first.
 */
export function refuseForbiddenKey(
  input: unknown,
  code: 'invalid-request' | 'invalid-setup' | 'invalid-event' | 'invalid-step' = 'invalid-request',
  skip: string | undefined = 'step',
  /** The field's name from its path in `input` (a set-up body's fields are named `setup.…`). */
  fieldOf: (path: string) => string = (path) => path,
): Failure | null {
  const path = forbiddenKey(input, '', 0, skip);
  if (path === null) return null;
  const at = fieldOf(path);
  return fail(code, `${at}: "${path.split('.').pop()}" is not allowed as a key`, at);
}

/**
 * Check `input` against an envelope schema (a `__proto__` / `constructor` / `prototype` key anywhere is refused
 * by name first). `whole` names the message itself when it is not an object at all: `request` over Socket.IO,
 * `body` for a REST body.
 * @returns the parsed envelope, or a Failure: `protocol-mismatch`, `invalid-request` naming the field, or
 *   `invalid-step` for a missing step.
 */
export function parseEnvelope<T>(schema: z.ZodType<T>, input: unknown, whole: 'request' | 'body' = 'request'): { ok: true; value: T } | Failure {
  const forbidden = refuseForbiddenKey(input);
  if (forbidden) return forbidden;
  const res = schema.safeParse(input);
  if (res.success) return { ok: true, value: res.data };
  if (res.error.issues.some((i) => i.path[0] === 'protocol')) return protocolMismatch((input as { protocol?: unknown }).protocol);
  const { field, message } = describeIssue(res.error, '');
  // The envelope's only objection to the step is that it is missing: that is the step's error, in the engine's words.
  if (field === 'step') return stepMissing();
  return fail('invalid-request', field ? message : `${whole}: ${res.error.issues[0]?.message ?? 'invalid'}`, field || whole);
}

/**
 * `protocol-mismatch` for a message that names protocol `sent` (undefined: a page from before versioning):
 * "reload the page" for another version number, "must be the number N" for a value that is not one.
 */
export function protocolMismatch(sent: unknown): Failure {
  // Not a version number at all (a string "3", null, true): the caller's mistake, not a page of another build.
  if (sent !== undefined && !Number.isInteger(sent)) {
    return fail('protocol-mismatch', `protocol: must be the number ${PROTOCOL_VERSION}, the protocol version (it sent ${JSON.stringify(sent)})`, 'protocol');
  }
  const named = sent === undefined ? 'no protocol version' : `protocol ${JSON.stringify(sent)}`;
  const which = typeof sent === 'number' && sent > PROTOCOL_VERSION ? 'a newer' : 'an older';
  return fail(
    'protocol-mismatch',
    `this page is from ${which} version of cuecast: reload the page (it sent ${named}; the server speaks protocol ${PROTOCOL_VERSION})`,
    'protocol',
  );
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
