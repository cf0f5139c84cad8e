/** Japanese strings of the organiser page's draw overrides (issue 27 §4). */
import type { enOverrides } from './en-overrides';

export const jaOverrides: Record<keyof typeof enOverrides, string> = {
  'ov.tableDraw': 'ドロー',
  'ov.heldNote': '保留中: オートパイロットはこの台に試合を入れません',
  'ov.freeNote': 'オートパイロットが次の準備完了の試合をこの台に入れます',
  'ov.hold': '{table}を保留',
  'ov.release': '{table}の保留を解除',
  'ov.swapWith': '{table}と入れ替える台',
  'ov.pickTable': '台を選択…',
  'ov.swap': '{table}と{other}を入れ替え',
  'ov.unassign': '割り当てを取り消す: {table}の{place}',
  'ov.refused': '{action}は拒否されました: {msg}',
  'ov.arrivals': '到着確認',
  'ov.policy': '選手が未到着のとき',
  'ov.policyWait': 'ドローは到着を待つ',
  'ov.policyWalkover': '相手の不戦勝にする',
  'ov.policyName': '未到着の扱い',
  'ov.here': '到着',
  'ov.absent': '未到着',
  'ov.markAbsent': '未到着にする',
  'ov.markArrived': '到着にする',
  'ov.markAbsentOf': '未到着にする: {name}',
  'ov.markArrivedOf': '到着にする: {name}',
  'ov.absentCount': '未到着 {n} 人',
  'ov.waitsFor': '待機: {name}が未到着',
};
