/**
 * The whole table of every language — the on-air part (./i18n-air.ts) and the page part (dashboard, spectator
 * page, scorer console, launcher, event pages: ./i18n/<lang>-pages.ts) — added to the one `t()` of ./i18n. Every page but
 * the OBS overlay imports `t` from here, so the strings are loaded before the page renders; the overlay never
 * carries the page part.
 */
import { addStrings, type Lang, type PageKey } from './i18n';
import './i18n-air';
import { enPages } from './i18n/en-pages';
import { jaPages } from './i18n/ja-pages';
import { zhTWPages } from './i18n/zh-TW-pages';

/** Page tables (the pages' part), for completeness tests. */
export const PAGE_TABLES: Record<Lang, Record<PageKey, string>> = { en: enPages, ja: jaPages, 'zh-TW': zhTWPages };
for (const [lang, table] of Object.entries(PAGE_TABLES)) addStrings(lang as Lang, table);

export { LANG_NAMES, LANGS, pageLang, rememberLang, t } from './i18n';
export type { Lang, PageKey, StringKey } from './i18n';
