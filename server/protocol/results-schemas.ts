/**
 * Zod schemas of the REST bodies of an event's roster import and webhooks (issue 27 §6). Strict objects (an
 * unknown key is refused by name); `parseEventBody(schema, body, code)` turns the first issue into the code
 * (`invalid-roster`, `invalid-webhook`) naming the field. What the schemas cannot see — a bad row of the CSV
 * (server/events/roster-csv.ts names its row and column), a URL that is not http(s) (server/webhooks/service.ts
 * `urlProblem`) — is refused there, naming the field too.
 */
import { z } from 'zod';
import { WEBHOOK_LIMITS } from '../../shared/protocol/webhooks';

/** Characters of CSV text a roster import takes. */
export const ROSTER_CSV_MAX = 64 * 1024;

/**
 * `POST /api/events/<id>/players/import`: `csv`, the roster as CSV text (rows `name, short, country, rating`; a
 * first row may name the columns, in any order); `expectedVersion` of the event (else 409 `stale`).
 */
export const rosterImportSchema = z.strictObject({
  csv: z.string().min(1, 'give the CSV text (rows: name, short, country, rating)').max(ROSTER_CSV_MAX),
  expectedVersion: z.number().int().min(0).optional(),
});

/** `POST /api/events/<id>/webhooks`: `url`, the receiver (an http:// or https:// address, no user name or password). */
export const webhookAddSchema = z.strictObject({
  url: z.string().min(1).max(WEBHOOK_LIMITS.url),
});
