/**
 * Flags of players' countries: one SVG per country (the `flag-icons` package, 4×3), copied by the page
 * build to `/flags/<code>.svg` and served by this server, so a page fetches only the flags it shows and
 * nothing comes from the internet on air. Codes: shared/countries.ts.
 */

/** URL of the flag of country `code` (`DE` → `/flags/de.svg`, `GB-SCT` → `/flags/gb-sct.svg`). */
export function flagUrl(code: string): string {
  return `/flags/${code.toLowerCase()}.svg`;
}
