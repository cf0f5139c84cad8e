/**
 * Country choices for the roster forms: every code of shared/countries.ts with its name in the page's
 * language (the browser's `Intl.DisplayNames`; the home nations, which it does not name, from the pages'
 * translation table), sorted by name.
 */
import { COUNTRY_CODES } from '../../../shared/countries';
import type { Lang } from '../lib/i18n';
import { t, type PageKey } from '../lib/i18n-pages';

/** The home nations' names: keys of the one translation table. */
const SUBDIVISIONS: Record<string, PageKey> = {
  'GB-ENG': 'country.GB-ENG',
  'GB-SCT': 'country.GB-SCT',
  'GB-WLS': 'country.GB-WLS',
  'GB-NIR': 'country.GB-NIR',
};

/** The name of country `code` in `lang` (the code itself when the browser has no name for it). */
export function countryName(code: string, lang: Lang): string {
  const sub = SUBDIVISIONS[code];
  if (sub) return t(lang, sub);
  try {
    return new Intl.DisplayNames([lang], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every country as `{code, name}`, sorted by name in `lang`. */
export function countryChoices(lang: Lang): { code: string; name: string }[] {
  return [...COUNTRY_CODES].map((code) => ({ code, name: countryName(code, lang) })).sort((a, b) => a.name.localeCompare(b.name, lang));
}
