/**
 * The OBS overlays' JavaScript budgets, gzip -9 bytes per language (every .js file a page loads: its script and
 * its language's table chunks). `npm run bench:pages` (bench/pages.bench.ts) prints the figures against them and
 * tests/pages/overlay-budget.test.ts holds every language to them.
 */

/**
 * The one-match overlay (`/overlay/<matchId>`): issue 17's 48 KB, up from issue 10's 32 KB, whose fit needed
 * patches of dependencies' internals.
 */
export const OVERLAY_JS_BUDGET = 48 * 1024;

/**
 * The hard ceiling of the table overlay (`/overlay/table/<eventId>/<table>`): the one-match overlay plus table
 * following (web/src/lib/live-rooms.ts), the cards and their data (shared/cards.ts), the theme preset and the
 * cards' strings — about 3.6 KB more than the one-match overlay; the ceiling is its 48 KB budget plus 6 KB.
 */
export const TABLE_OVERLAY_JS_CEILING = 54 * 1024;

/**
 * The hard ceiling of the OBS draw graphics (`/overlay/draw/<eventId>`, `/overlay/standings/<eventId>`): the live
 * client's core and its draw subscription, shared/draw's delta and labels (three languages, no chunk of its own),
 * the bracket and the lower third — the one-match overlay's 48 KB budget.
 */
export const DRAW_OVERLAY_JS_CEILING = 48 * 1024;
