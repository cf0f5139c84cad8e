/**
 * The OBS overlays' optional parts: code most pages never run, each a chunk of its own (Vite splits a dynamic
 * `import()`: `assets/<page>-<chunk>-<hash>.js`), fetched only when the page's parameters ask for it — the
 * `show=odds` strip (the win-probability model), the `milestones=auto` pop-up, the `debug=1` chip — or, on the
 * table overlay, when a card goes up (table/card-part.ts). `preloadParts` starts the ones the URL asks for at boot,
 * while the socket handshakes and the strings load; the first paint never waits for a part (a part shows once
 * its chunk has run, normally before the first state arrives). A parameter that arrives later (the table
 * overlay's theme preset) fetches its part then. A part whose chunk cannot be fetched stays off (logged; browsers
 * remember a failed module import, so it is not asked again) and the rest of the overlay carries on.
 * The chunks' names are the budget's (tests/helpers/pages-probes.ts `OVERLAY_PARTS`).
 */
import type { OverlayParams } from './params';

/** One optional part: its module once fetched (`ready`, else null) and `load()`, which fetches it once. */
export interface Part<T> {
  readonly ready: T | null;
  /** Fetch the part's chunk (once; later calls get the same promise). Rejects when it cannot be fetched. */
  load(): Promise<T>;
}

/** The part `name` (for the log), fetched by `importer` at its first `load()`. */
export function part<T>(name: string, importer: () => Promise<T>): Part<T> {
  let loading: Promise<T> | null = null;
  const p: { ready: T | null; load(): Promise<T> } = {
    ready: null,
    load: () =>
      (loading ??= importer().then(
        (m) => (p.ready = m),
        (e: unknown) => {
          console.error(`overlay: the ${name} part could not be loaded; it stays off`, e);
          throw e;
        },
      )),
  };
  return p;
}

/**
 * Call `use` with `p`'s module: at once when it is already fetched, else when its chunk has run (never when it
 * cannot be fetched). For a component's `$effect`, which keeps the module in its state.
 */
export function withPart<T>(p: Part<T>, use: (m: T) => void): void {
  if (p.ready) use(p.ready);
  else p.load().then(use, () => {});
}

// Each marked pure, so a page that uses a part not (the one-match overlay: no cards) builds no chunk for it.
/** `show=odds`: the "what it takes" strip and its model (odds-part.ts). */
export const oddsPart = /* @__PURE__ */ part('odds', () => import('./odds-part'));
/** `milestones=auto`: the milestone pop-up (Milestone.svelte). */
export const milestonePart = /* @__PURE__ */ part('milestones', () => import('./Milestone.svelte'));
/** `debug=1`: the connection chip (Chip.svelte). */
export const chipPart = /* @__PURE__ */ part('debug', () => import('./Chip.svelte'));
/** The table overlay's intro and summary cards (table/card-part.ts), when a card first goes up. */
export const cardPart = /* @__PURE__ */ part('cards', () => import('./table/card-part'));

/** Start fetching the parts `params` ask for (at boot, beside the strings); nothing waits for them. */
export function preloadParts(params: OverlayParams): void {
  const quiet = () => {};
  if (params.show.has('odds')) oddsPart.load().catch(quiet);
  if (params.milestones === 'auto') milestonePart.load().catch(quiet);
  if (params.debug) chipPart.load().catch(quiet);
}
