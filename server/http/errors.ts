/** HTTP status for each wire error code, and the JSON error body `{error: {code, message, field?}}`. */
import type { Response } from 'express';
import type { ApiError, ErrorCode } from '../../shared/protocol/errors';

/** 400 for invalid input and rules refusals; 401/403 for tokens; 404; 409 stale; 413; 429; 500. */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not-found':
      return 404;
    case 'stale':
      return 409;
    case 'too-large':
      return 413;
    case 'rate-limited':
      return 429;
    case 'internal':
      return 500;
    default:
      return 400;
  }
}

/** Send `{error, ...extra}` with the status of its code. */
export function sendError(res: Response, error: ApiError, extra: Record<string, unknown> = {}): void {
  res.status(statusOf(error.code)).json({ error, ...extra });
}
