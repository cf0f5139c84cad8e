/**
 * An event's theme preset as defaults of an overlay's URL parameters (shared/protocol/event.ts
 * `ThemePreset`): every overlay of the event starts from the preset, and a parameter in its own URL wins.
 */
import type { ThemePreset } from '../../shared/protocol/event';

/** `search` (a page's `location.search`) with the preset's parameters added where the URL has none. */
export function presetSearch(search: string, preset: ThemePreset): string {
  const q = new URLSearchParams(search);
  for (const [key, value] of Object.entries(preset)) {
    if (typeof value === 'string' && value !== '' && !q.has(key)) q.set(key, value);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
