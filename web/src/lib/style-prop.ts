/**
 * One inline style property as a Svelte action, for the OBS overlays and the pages that fit names (FitText).
 */

/**
 * Svelte action: one inline style property, `[name, value]` (`['--s', '1.2']`, `['font-size', '40px']`), set
 * on mount and whenever it changes. The overlay's components use it instead of a `style="…{x}"` attribute,
 * whose compiled form brings Svelte's style-text parser (`to_style`, for `style:` directives the overlay never
 * uses) into the page's bundle (about 0.6 KB gzip).
 */
export function styleProp(node: HTMLElement, prop: [name: string, value: string]): { update(p: [string, string]): void } {
  const set = ([name, value]: [string, string]) => node.style.setProperty(name, value);
  set(prop);
  return { update: set };
}
