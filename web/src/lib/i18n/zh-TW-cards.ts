/** The table overlay's on-air strings in Traditional Chinese (Taiwan): the intro, summary and not-found cards (see ./en-cards.ts). */
import type { CardDict } from './en-cards';

export const zhTWCards: CardDict = {
  fouls: '犯規',
  single61: '單局,先得61分',
  'ev.eventNotFound': '找不到賽事：{id}',
  'ev.tableNotFound': '找不到球檯：{table}',
  'ev.noTableInUrl': '網址中沒有球檯',
  final: '比賽結果',
};
