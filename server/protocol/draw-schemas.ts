/**
 * Zod schemas of the draw's REST bodies (`/api/events/<id>/draw…`, issue 27). Strict objects (an unknown key is
 * refused by name), capped lists; `parseEventBody(schema, body, 'invalid-draw')` turns the first issue into
 * `invalid-draw` naming the field. What the schemas cannot see (a player not on the roster, a player twice, a
 * match not in the draw, a winner not in the match) the draw service and shared/draw refuse, naming the field too.
 */
import { z } from 'zod';
import { DRAW_PLAYERS_MAX, GROUP_SIZE_MAX, GROUP_SIZE_MIN } from '../../shared/draw/structure';
import type { SubscribeDrawRequest, UnsubscribeDrawRequest } from '../../shared/protocol/draw';
import { SAFE_ID, SCORE_LIMIT, TABLE_ID, TARGET_MAX } from '../../shared/protocol/limits';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';

const race = z.number().int().min(1).max(TARGET_MAX);
const playerId = z.string().min(1).max(16);
const matchRef = z.string().regex(/^[A-Za-z0-9-]{1,16}$/, 'must be a match id of the draw (W1-3, L2-1, HS, F, FR, R1-2, GA-1-1)');
const tableId = z.string().regex(TABLE_ID, 'must be a table id (table-1, tv-table)');
const expectedVersion = z.number().int().min(0).optional();
const pair = z.tuple([z.number().int().min(-SCORE_LIMIT).max(SCORE_LIMIT), z.number().int().min(-SCORE_LIMIT).max(SCORE_LIMIT)]);

/**
 * `POST /api/events/<id>/draw`: make the event's draw. `players`: roster ids (default: the whole roster);
 * `seeding`: `rating` (default), `order` (as listed), `random` (from `seed`, 0–4294967295; the server picks one
 * when absent, and shows and stores it); `races`: the default race (else the event's default target), per side
 * (`W`, `L`, `F`, `G`) and per round (`W1`, `L3`, `F`…); `trueDouble`: the final's reset; `groupSize`, `advance`,
 * `knockout` for round robin and groups then knockout; `tvTable` and `featured` (draw match ids played on it);
 * `autopilot` on from the start; `cancel: true` to replace a draw that has begun (its results are dropped).
 */
export const drawCreateSchema = z.strictObject({
  format: z.enum(['single', 'double', 'round-robin', 'groups-knockout']),
  players: z.array(playerId).max(DRAW_PLAYERS_MAX).optional(),
  seeding: z.enum(['rating', 'order', 'random']).optional(),
  seed: z.number().int().min(0).max(0xffffffff).optional(),
  races: z
    .strictObject({
      default: race.optional(),
      sides: z.strictObject({ W: race.optional(), L: race.optional(), F: race.optional(), G: race.optional() }).optional(),
      rounds: z.record(z.string().regex(/^[A-Z]{1,2}\d{0,2}$/, 'must be a round key (W1, L3, R2, G1, F, FR)'), race).optional(),
    })
    .optional(),
  trueDouble: z.boolean().optional(),
  groupSize: z.number().int().min(GROUP_SIZE_MIN).max(GROUP_SIZE_MAX).optional(),
  advance: z.number().int().min(1).max(GROUP_SIZE_MAX).optional(),
  knockout: z.enum(['single', 'double']).optional(),
  tvTable: tableId.optional(),
  featured: z.array(matchRef).max(64).optional(),
  autopilot: z.boolean().optional(),
  cancel: z.boolean().optional(),
});

/**
 * `POST /api/events/<id>/draw/results`: the organiser records (or corrects) a match's result: a win (with the
 * score, innings and high runs, A first as the draw lists the players), a walkover or a retirement. A correction
 * whose dependent matches have started or finished names them in `reset` (they go back to waiting).
 */
export const drawResultSchema = z.strictObject({
  match: matchRef,
  winner: playerId,
  kind: z.enum(['win', 'walkover', 'retired']),
  score: pair.optional(),
  innings: z.number().int().min(0).max(SCORE_LIMIT).optional(),
  highRun: pair.optional(),
  reset: z.array(matchRef).max(512).optional(),
  expectedVersion,
});

/** `POST /api/events/<id>/draw/autopilot`: `{"on": true | false}` (false pauses it; matches on tables play on). */
export const autopilotSchema = z.strictObject({ on: z.boolean(), expectedVersion });

/** `POST /api/events/<id>/draw/pins`: match `match` waits for table `table` (null: unpinned). */
export const pinSchema = z.strictObject({ match: matchRef, table: tableId.nullable(), expectedVersion });

/** `POST /api/events/<id>/draw/races`: the race of round `round` (before its first match starts). */
export const roundRaceSchema = z.strictObject({ round: z.string().min(1).max(8), race, expectedVersion });

/**
 * `POST /api/events/<id>/draw/absent`: mark player `player` (a player of the draw) absent (`absent: true`, not
 * arrived) or back (`false`). Their ready matches wait or are walked over, as the draw's `absentPolicy` says.
 */
export const absentSchema = z.strictObject({ player: playerId, absent: z.boolean(), expectedVersion });

/** `POST /api/events/<id>/draw/absent-policy`: what a ready match of an absent player does: `wait` or `walkover`. */
export const absentPolicySchema = z.strictObject({ policy: z.enum(['wait', 'walkover']), expectedVersion });

/** `POST /api/events/<id>/draw/swap`: swap the matches on two tables (each goes on the other table). */
export const swapSchema = z.strictObject({ tables: z.tuple([tableId, tableId]), expectedVersion });

/**
 * `POST /api/events/<id>/draw/unassign`: undo an assignment: match `match` (on a table, no shot recorded) leaves
 * its table and is ready again; the table is held (autopilot leaves it alone) until released (`/draw/hold`).
 */
export const unassignSchema = z.strictObject({ match: matchRef, expectedVersion });

/** `POST /api/events/<id>/draw/hold`: hold table `table` (autopilot leaves it alone) or release it (`held: false`). */
export const holdSchema = z.strictObject({ table: tableId, held: z.boolean(), expectedVersion });

const protocol = z.literal(PROTOCOL_VERSION);
const eventIdSchema = z.string().regex(SAFE_ID, 'must be 1–64 letters, digits, _ or -');
/** Socket.IO `subscribeDraw` (shared/protocol/draw.ts). */
export const subscribeDrawSchema = z.strictObject({ protocol, eventId: eventIdSchema }) satisfies z.ZodType<SubscribeDrawRequest>;
/** Socket.IO `unsubscribeDraw`. */
export const unsubscribeDrawSchema = z.strictObject({ eventId: eventIdSchema }) satisfies z.ZodType<UnsubscribeDrawRequest>;
