import { defineConfig } from 'vite';
import { overlayPageConfig } from './vite.shared.ts';

/**
 * The OBS overlay of one match (`/overlay/:id` → overlay.html), built alone into overlay/dist (emptied first):
 * one bundle within its 48 KB gzip budget (overlay/budget.ts, `npm run bench:pages`) plus the chunk of the page's
 * language table, `assets/overlay-<lang>-air-<hash>.js`, and the optional parts' chunks (src/parts.ts), fetched only
 * when used. See `overlayPageConfig`.
 */
export default defineConfig(overlayPageConfig('overlay'));
