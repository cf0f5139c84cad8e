/**
 * The OBS overlays' JavaScript budgets, gzip -9 bytes per language (every .js file a page loads: its script and
 * its language's table chunks; not its optional parts, src/parts.ts, fetched only when the URL or a card uses
 * them). `npm run bench:pages` (bench/pages.bench.ts) prints the figures against them and
 * tests/pages/overlay-budget.test.ts holds every language to them.
 */

/**
 * The one-match overlay (`/overlay/<matchId>`): issue 17's 48 KB, up from issue 10's 32 KB, whose fit needed
 * patches of dependencies' internals.
 */
export const OVERLAY_JS_BUDGET = 48 * 1024;

/**
 * The hard ceiling of the table overlay (`/overlay/table/<eventId>/<table>`): its script (the one-match overlay plus
 * the full live client, table following in web/src/lib/live-rooms.ts, the theme preset, the sponsor slot and OBS
 * scene switching) and its language's on-air and cards-strings chunks — 49,640 / 50,205 / 50,004 bytes (en / ja /
 * zh-TW), with about 1 KB to spare over the largest. The optional parts (src/parts.ts: the cards themselves, the
 * odds strip, the milestone pop-up, the debug chip), fetched only when used, count in no ceiling. Was 54 KB while
 * those parts were in the script (54,594 / 55,159 / 54,958 bytes).
 */
export const TABLE_OVERLAY_JS_CEILING = 50 * 1024;

/**
 * The hard ceiling of the OBS draw graphics (`/overlay/draw/<eventId>`, `/overlay/standings/<eventId>`): the live
 * client's core and its draw subscription, shared/draw's delta and labels (three languages, no chunk of its own),
 * the bracket and the lower third — the one-match overlay's 48 KB budget.
 */
export const DRAW_OVERLAY_JS_CEILING = 48 * 1024;
