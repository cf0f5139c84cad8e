/**
 * The `show=odds` part, a chunk of its own (parts.ts `oddsPart`): the "what it takes" strip (OddsStrip.svelte) and
 * its view (odds-view.ts) with the win-probability model (shared/win-probability.ts), none of which an overlay
 * without `show=odds` loads.
 */
export { default as OddsStrip } from './OddsStrip.svelte';
export { oddsView } from './odds-view';
