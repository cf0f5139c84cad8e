/**
 * Country choices for the roster forms: every code of shared/countries.ts with its name in the page's
 * language (the browser's `Intl.DisplayNames`; the home nations and Kosovo named here), sorted by name.
 */
import { COUNTRY_CODES } from '../../../shared/countries';
import type { Lang } from '../lib/i18n';

const SUBDIVISIONS: Record<string, Record<Lang, string>> = {
  'GB-ENG': { en: 'England', ja: 'イングランド', 'zh-TW': '英格蘭' },
  'GB-SCT': { en: 'Scotland', ja: 'スコットランド', 'zh-TW': '蘇格蘭' },
  'GB-WLS': { en: 'Wales', ja: 'ウェールズ', 'zh-TW': '威爾斯' },
  'GB-NIR': { en: 'Northern Ireland', ja: '北アイルランド', 'zh-TW': '北愛爾蘭' },
};

/** The name of country `code` in `lang` (the code itself when the browser has no name for it). */
export function countryName(code: string, lang: Lang): string {
  const sub = SUBDIVISIONS[code];
  if (sub) return sub[lang];
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
