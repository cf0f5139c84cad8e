/**
 * The page part of every language's table (dashboard, spectator page, scorer console, launcher), added to
 * the one `t()` of ./i18n. Every page but the OBS overlay imports `t` from here, so the strings are loaded
 * before the page renders; the overlay imports ./i18n alone and never carries them.
 */
import { addPageStrings, type Lang, type PageKey, t } from './i18n';
import { enPages } from './i18n/en-pages';
import { jaPages } from './i18n/ja-pages';
import { zhTWPages } from './i18n/zh-TW-pages';

/** Page tables (the pages' part), for completeness tests. */
export const PAGE_TABLES: Record<Lang, Record<PageKey, string>> = { en: enPages, ja: jaPages, 'zh-TW': zhTWPages };
addPageStrings(PAGE_TABLES);

export { LANG_NAMES, LANGS, pageLang, rememberLang, t } from './i18n';
export type { Lang, PageKey, StringKey } from './i18n';
