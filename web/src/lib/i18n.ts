/**
 * Page strings in English, Japanese and Traditional Chinese (Taiwan): one table per language, one `t()` and
 * one placeholder filler for every page, and the page language (`?lang=`, the last choice, the browser).
 *
 * Each language's table has three parts: the on-air strings (./i18n/<lang>-air.ts: scorebug, captions, the
 * situation line, moments, the not-found card — what the OBS overlay shows), the table overlay's cards
 * (./i18n/<lang>-cards.ts: intro, summary, a table's not-found card) and the other pages' strings
 * (./i18n/<lang>-pages.ts: dashboard, spectator page, scorer, launcher, event pages). This module holds no table itself;
 * they are added with `addStrings`: ./i18n-air.ts adds every language's on-air and cards parts and ./i18n-pages.ts
 * (which every page but the overlay imports) the page parts too, while the OBS overlay loads only its own
 * language's on-air part (../overlay/air-strings.ts), so its bundle stays within the 32 KB budget, and the table
 * overlay only its language's on-air and cards parts (../overlay/table/table-strings.ts).
 */
import type { AirKey } from './i18n/en-air';
import type { CardKey } from './i18n/en-cards';
import type { PageKey } from './i18n/en-pages';

export type Lang = 'en' | 'ja' | 'zh-TW';
export const LANGS: readonly Lang[] = ['en', 'ja', 'zh-TW'];
/** Display names for a language switch, in their own script. */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', ja: '日本語', 'zh-TW': '繁體中文' };

export type { AirKey, CardKey, PageKey };
/** Any page string: on-air (scorebug or cards) or page. */
export type StringKey = AirKey | CardKey | PageKey;
/** One language's whole table (all three parts). */
export type Table = Record<StringKey, string>;

/** The tables by language, filled by `addStrings`. */
const TABLES: Record<Lang, Partial<Table>> = { en: {}, ja: {}, 'zh-TW': {} };

/** Add strings (one part of a language's table) to `lang`'s table. */
export function addStrings(lang: Lang, strings: Partial<Table>): void {
  Object.assign(TABLES[lang], strings);
}

/**
 * `key` in `lang` with its `{placeholder}`s filled from `params`. A key missing in `lang` falls back to English,
 * one missing everywhere (a part of the table this page did not load) shows as the key itself.
 */
export function t(lang: Lang, key: StringKey, params?: Record<string, string | number>): string {
  return fill(TABLES[lang][key] ?? TABLES.en[key] ?? key, params);
}

/** Fill `{name}`-style placeholders from `params`; a placeholder without a value stays as written. */
export function fill(s: string, params?: Record<string, string | number>): string {
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** A supported language from a URL value or `navigator.language` (`zh-Hant`, `zh-TW` → zh-TW; `ja-JP` → ja); else English. */
export function pickLang(value: string | null | undefined): Lang {
  const v = (value ?? '').toLowerCase();
  if (v.startsWith('ja')) return 'ja';
  if (v === 'zh-tw' || v.startsWith('zh-hant') || v === 'zh-hk' || v === 'zh') return 'zh-TW';
  return 'en';
}

/** localStorage key of the language last picked on any page. */
const LANG_KEY = 'cuecast.lang';

/** Where a page finds the language the user picked before: a `Storage`-like object (null when blocked). */
type LangStorage = Pick<Storage, 'getItem' | 'setItem'> | null;

function browserStorage(): LangStorage {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked
  }
}

/**
 * The language of a page (all but the OBS overlay, whose `?lang=` alone decides): `?lang=` first, then the
 * language last picked on any page of this browser, then the browser's own; unsupported → English.
 */
export function pageLang(search: string, navigatorLanguage?: string, storage: LangStorage = browserStorage()): Lang {
  const q = new URLSearchParams(search).get('lang');
  let remembered: string | null = null;
  try {
    remembered = storage?.getItem(LANG_KEY) ?? null;
  } catch {
    /* storage blocked */
  }
  return pickLang(q ?? remembered ?? navigatorLanguage ?? 'en');
}

/**
 * Remember a language the user picked: in the page address (`?lang=`, so a shared or reloaded link keeps it),
 * on `<html lang>`, and in localStorage for pages opened without `?lang=`.
 */
export function rememberLang(lang: Lang, storage: LangStorage = browserStorage()): void {
  const u = new URL(location.href);
  u.searchParams.set('lang', lang);
  history.replaceState(null, '', u);
  document.documentElement.lang = lang;
  try {
    storage?.setItem(LANG_KEY, lang);
  } catch {
    /* private mode: the address still carries it */
  }
}
