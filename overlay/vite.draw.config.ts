import { defineConfig } from 'vite';
import { overlayPageConfig } from './vite.shared.ts';

/**
 * The OBS draw graphics of an event (`/overlay/draw/:eventId`: the full-screen bracket for breaks, and
 * `/overlay/standings/:eventId`: the standings lower third → overlay-draw.html), built alone after the other two
 * overlays into the same overlay/dist: one bundle (its words come with shared/draw/labels.ts). See `overlayPageConfig`.
 */
export default defineConfig(overlayPageConfig('overlay-draw'));
