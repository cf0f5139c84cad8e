/** The table overlay's on-air strings in Japanese: the intro, summary and not-found cards (see ./en-cards.ts). */
import type { CardDict } from './en-cards';

export const jaCards: CardDict = {
  fouls: 'ファウル',
  single61: '1ラック(61点先取)',
  'ev.eventNotFound': 'イベントが見つかりません: {id}',
  'ev.tableNotFound': '台が見つかりません: {table}',
  'ev.noTableInUrl': 'このアドレスには台が指定されていません',
  final: '試合結果',
};
