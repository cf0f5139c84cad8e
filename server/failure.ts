/** The refusal value every server layer returns instead of throwing for a business error. */
import type { ApiError, ErrorCode } from '../shared/protocol/errors';

/** A refusal: the wire error, plus the current version for `stale`. */
export type Failure = { ok: false; error: ApiError; currentVersion?: number };

/** A refusal with `code`, a message naming the field and why, and the field when one is at fault. */
export function fail(code: ErrorCode, message: string, field?: string): Failure {
  return { ok: false, error: field === undefined ? { code, message } : { code, message, field } };
}
