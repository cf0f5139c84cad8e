import { defineConfig } from 'vite';
import { overlayPageConfig } from './vite.shared.ts';

/**
 * The OBS overlay that follows a table (`/overlay/table/:eventId/:table` → overlay-table.html), built alone
 * after vite.config.ts into the same overlay/dist, so the one-match overlay's bundle carries none of its code:
 * one bundle plus its language's on-air and cards chunks, `assets/overlay-table-<lang>-{air,cards}-<hash>.js`.
 * See `overlayPageConfig`.
 */
export default defineConfig(overlayPageConfig('overlay-table'));
