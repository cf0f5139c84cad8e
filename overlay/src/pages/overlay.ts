/**
 * `/overlay/<matchId>` — the OBS browser-source scorebug. Parameters: see overlay/params.ts.
 * Budget: ≤ 25 KB gzip of JavaScript, so plain DOM (overlay/scorebug.ts) and no zod or shared runtime.
 */
import '../styles/overlay.css';
import { createClient } from '../lib/client';
import { matchIdFromLocation } from '../lib/live-route';
import { setMotion } from '../overlay/motion';
import { parseOverlayParams } from '../overlay/params';
import { startOverlay } from '../overlay/stage';

const params = parseOverlayParams(location.search);
setMotion(params.anim);
document.documentElement.lang = params.lang;
startOverlay(document.getElementById('app')!, createClient(), matchIdFromLocation(), params);
