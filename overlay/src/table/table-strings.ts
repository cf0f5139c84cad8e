/**
 * The table overlay's strings: its one language's on-air part (the scorebug's, ../../lib/i18n/<lang>-air.ts) and
 * cards part (<lang>-cards.ts), each its own chunk, fetched at once while the socket handshakes. The OBS
 * overlay of one match loads the first only (../air-strings.ts).
 */
import { addStrings, type Lang } from '../../../web/src/lib/i18n';
import type { AirDict } from '../../../web/src/lib/i18n/en-air';
import type { CardDict } from '../../../web/src/lib/i18n/en-cards';

const LOAD: Record<Lang, () => Promise<[AirDict, CardDict]>> = {
  en: () => Promise.all([import('../../../web/src/lib/i18n/en-air').then((m) => m.en), import('../../../web/src/lib/i18n/en-cards').then((m) => m.enCards)]),
  ja: () => Promise.all([import('../../../web/src/lib/i18n/ja-air').then((m) => m.ja), import('../../../web/src/lib/i18n/ja-cards').then((m) => m.jaCards)]),
  'zh-TW': () =>
    Promise.all([import('../../../web/src/lib/i18n/zh-TW-air').then((m) => m.zhTW), import('../../../web/src/lib/i18n/zh-TW-cards').then((m) => m.zhTWCards)]),
};

/** Load `lang`'s on-air and cards strings into the one `t()`. @throws (rejects) when a chunk cannot be fetched. */
export async function loadTableStrings(lang: Lang): Promise<void> {
  const [air, cards] = await LOAD[lang]();
  addStrings(lang, { ...air, ...cards });
}
