/**
 * `/overlay/table/<eventId>/<table>` — the OBS browser source that follows a table of an event
 * (overlay/src/table/TableOverlay.svelte): the one-match overlay for whatever match is on the table, switching to
 * the next by itself, with the intro and summary cards. Every parameter of the one-match overlay
 * (overlay/src/params.ts), the event's theme preset under them, and `cards=0` (no cards). A page of its own, built
 * alone (overlay/vite.table.config.ts), so `/overlay/<id>` carries none of its code; its JS: one script plus its
 * language's on-air and cards chunks (`npm run bench:pages`, tests/pages/overlay-budget.test.ts), and the optional
 * parts (../parts.ts: the cards when one goes up, the odds strip, the milestone pop-up, the debug chip) when used.
 */
import { mount } from 'svelte';
import '../styles/overlay.css';
import '../styles/cards.css';
import { createClient } from '../../../web/src/lib/client';
import { tableFromLocation } from '../../../web/src/lib/live-route';
import { bootOverlay } from '../boot';
import { loadTableStrings } from '../table/table-strings';
import TableOverlay from '../table/TableOverlay.svelte';

const where = tableFromLocation() ?? { eventId: '', table: '' };
// Not awaited: a top-level await here would make the optional parts' chunks (../parts.ts), which import from this
// script, wait for it — and the build would move everything they share into chunks of their own. A failed boot
// rejects (logged by the browser) and reloads the page (../boot.ts).
void bootOverlay(loadTableStrings, createClient, (client) =>
  mount(TableOverlay, {
    target: document.getElementById('app')!,
    props: { client, ...where, search: location.search, cards: new URLSearchParams(location.search).get('cards') !== '0' },
  }),
);
