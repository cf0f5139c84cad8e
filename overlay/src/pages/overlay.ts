/**
 * `/overlay/<matchId>` — the OBS browser-source scorebug, a Svelte 5 component tree (overlay/src/Overlay.svelte)
 * fed by the one live client. Parameters: see overlay/src/params.ts.
 * Budget: 48 KB gzip of JavaScript in total with the Svelte runtime and socket.io-client, the page's one
 * language table included (overlay/budget.ts; `npm run bench:pages` prints it; tests/pages/overlay-budget.test.ts
 * holds it); the optional parts (../parts.ts: odds strip, milestone pop-up, debug chip) are fetched only when used;
 * no zod or shared runtime. The table overlay is another page (overlay-table.ts), so none of its code is here.
 */
import { mount } from 'svelte';
import '../styles/overlay.css';
import { createScorebugClient } from '../../../web/src/lib/client';
import { matchIdFromLocation } from '../../../web/src/lib/live-route';
import { loadAirStrings } from '../air-strings';
import { bootOverlay } from '../boot';
import Overlay from '../Overlay.svelte';

// Not awaited: a top-level await here would make the optional parts' chunks (../parts.ts), which import from this
// script, wait for it — and the build would move everything they share into chunks of their own. A failed boot
// rejects (logged by the browser) and reloads the page (../boot.ts).
void bootOverlay(loadAirStrings, createScorebugClient, (client, params) =>
  mount(Overlay, { target: document.getElementById('app')!, props: { client, matchId: matchIdFromLocation(), params } }),
);
