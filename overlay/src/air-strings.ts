/**
 * The OBS overlay's strings: the on-air part of the table of its one language (`?lang=`, fixed for the page's
 * life), loaded as its own chunk, so the overlay's bundle carries no table it does not show (32 KB budget).
 * The page starts connecting before it awaits this (a same-origin chunk of about 1 KB gzip, fetched while the
 * socket handshakes), so the first state is not painted later for it.
 */
import { addStrings, type Lang } from '../../web/src/lib/i18n';
import type { AirDict } from '../../web/src/lib/i18n/en-air';

const LOAD: Record<Lang, () => Promise<AirDict>> = {
  en: () => import('../../web/src/lib/i18n/en-air').then((m) => m.en),
  ja: () => import('../../web/src/lib/i18n/ja-air').then((m) => m.ja),
  'zh-TW': () => import('../../web/src/lib/i18n/zh-TW-air').then((m) => m.zhTW),
};

/** Load `lang`'s on-air strings into the one `t()`. @throws (rejects) when the chunk cannot be fetched. */
export async function loadAirStrings(lang: Lang): Promise<void> {
  addStrings(lang, await LOAD[lang]());
}
