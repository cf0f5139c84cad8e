/** Traditional Chinese (Taiwan) strings of the organiser page's draw overrides (issue 27 §4). */
import type { enOverrides } from './en-overrides';

export const zhTWOverrides: Record<keyof typeof enOverrides, string> = {
  'ov.tableDraw': '賽程',
  'ov.heldNote': '保留中：自動排檯不會把比賽排到這張球檯',
  'ov.freeNote': '自動排檯可把下一場待賽比賽排到這裡',
  'ov.hold': '保留{table}',
  'ov.release': '解除保留{table}',
  'ov.swapWith': '{table}要對調的球檯',
  'ov.pickTable': '選擇球檯…',
  'ov.swap': '對調{table}與{other}',
  'ov.unassign': '取消排檯：{table}的{place}',
  'ov.refused': '{action}遭拒：{msg}',
  'ov.arrivals': '報到',
  'ov.policy': '選手未到時',
  'ov.policyWait': '賽程等待選手',
  'ov.policyWalkover': '判對手不戰而勝',
  'ov.policyName': '未到處理',
  'ov.here': '已到',
  'ov.absent': '未到',
  'ov.markAbsent': '標記未到',
  'ov.markArrived': '標記已到',
  'ov.markAbsentOf': '標記未到：{name}',
  'ov.markArrivedOf': '標記已到：{name}',
  'ov.absentCount': '未到 {n} 人',
  'ov.waitsFor': '等待：{name}未到',
};
