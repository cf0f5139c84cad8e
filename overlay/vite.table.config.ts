import { defineConfig } from 'vite';
import { overlayPageConfig } from './vite.shared.ts';

/**
 * The OBS overlay that follows a table (`/overlay/table/:eventId/:table` → overlay-table.html), built alone
 * after vite.config.ts into the same overlay/dist, so the one-match overlay's bundle carries none of its code:
 * one bundle plus its language's on-air and cards chunks, `assets/overlay-table-<lang>-{air,cards}-<hash>.js`, and
 * the optional parts' chunks (src/parts.ts: the cards, the odds strip, the milestone pop-up, the debug chip),
 * fetched only when used. See `overlayPageConfig`.
 */
export default defineConfig(overlayPageConfig('overlay-table'));
