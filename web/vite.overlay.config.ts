import { defineConfig } from 'vite';
import { overlayPageConfig } from './vite.shared.ts';

/**
 * The OBS overlay of one match (`/overlay/:id` → overlay.html), built alone after vite.config.ts into the same
 * dist/: one bundle within its 32 KB gzip budget (`npm run bench:pages`) plus the chunk of the page's language
 * table, `assets/overlay-<lang>-air-<hash>.js`. See `overlayPageConfig`.
 */
export default defineConfig(overlayPageConfig('overlay'));
