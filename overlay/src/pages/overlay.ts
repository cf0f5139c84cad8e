/**
 * `/overlay/<matchId>` — the OBS browser-source scorebug, a Svelte 5 component tree (overlay/Overlay.svelte)
 * fed by the one live client. Parameters: see overlay/params.ts.
 * Budget: ≤ 32 KB gzip of JavaScript in total with the Svelte runtime and socket.io-client, the page's one
 * language table included (`npm run bench:pages` prints it; tests/pages/overlay-budget.test.ts enforces it);
 * no zod or shared runtime.
 */
import { mount } from 'svelte';
import '../styles/overlay.css';
import { createClient } from '../lib/client';
import { matchIdFromLocation } from '../lib/live-route';
import { loadAirStrings } from '../overlay/air-strings';
import { setMotion } from '../overlay/motion';
import Overlay from '../overlay/Overlay.svelte';
import { parseOverlayParams } from '../overlay/params';

const params = parseOverlayParams(location.search);
setMotion(params.anim);
document.documentElement.lang = params.lang;
// Connect first: the socket handshakes while the language table loads.
const client = createClient();
await loadAirStrings(params.lang);
mount(Overlay, { target: document.getElementById('app')!, props: { client, matchId: matchIdFromLocation(), params } });
