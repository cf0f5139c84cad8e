/**
 * Scorer-console and launcher strings in English, Japanese and Traditional Chinese (Taiwan), using the
 * rulebook terms (zh-TW: 開球, 防守, 犯規, 連續三次犯規, 推桿, 自由球, 開球線; ja: ブレイク, セーフティ,
 * ファウル, スリーファウル, プッシュアウト). `ts(lang, key, params)` fills `{placeholder}`s.
 * Language choice (`?lang=` or the browser) is the shared `pickLang` of ./i18n.
 */
import { pickLang, type Lang } from './i18n';
import { en, type ScorerDict, type ScorerKey } from './i18n-scorer-en';
import { ja } from './i18n-scorer-ja';
import { zhTW } from './i18n-scorer-zh-tw';

export type { Lang };

export type { ScorerKey };

const DICTS: Record<Lang, ScorerDict> = { en, ja, 'zh-TW': zhTW };


/** Translate `key` into `lang`, filling `{placeholder}`s from `params`; falls back to English. */
export function ts(lang: Lang, key: ScorerKey, params?: Record<string, string | number>): string {
  const s = DICTS[lang]?.[key] ?? en[key];
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** The page language: `?lang=` wins, else the browser's first preference; unsupported → English. */
export function scorerLang(search: string, navigatorLanguage?: string): Lang {
  const q = new URLSearchParams(search).get('lang');
  return pickLang(q ?? navigatorLanguage ?? 'en');
}

/** All keys of the English table (tests check every language covers them). */
export const SCORER_KEYS = Object.keys(en) as ScorerKey[];
/** The tables themselves, for completeness tests. */
export const SCORER_DICTS = DICTS;
