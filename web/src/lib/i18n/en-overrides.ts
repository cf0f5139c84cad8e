/**
 * English strings of the organiser page's draw overrides (issue 27 §4): a table held or released, two tables'
 * matches swapped, an assignment undone, players marked absent or arrived and what the draw does about them.
 */
export const enOverrides = {
  'ov.tableDraw': 'Draw',
  'ov.heldNote': 'Held: autopilot leaves this table alone',
  'ov.freeNote': 'Autopilot may put the next ready match here',
  'ov.hold': 'Hold {table}',
  'ov.release': 'Release {table}',
  'ov.swapWith': 'Swap {table} with',
  'ov.pickTable': 'pick a table…',
  'ov.swap': 'Swap {table} and {other}',
  'ov.unassign': 'Undo assignment: {place} off {table}',
  'ov.refused': '{action} refused: {msg}',
  'ov.arrivals': 'Arrivals',
  'ov.policy': 'When a player is absent',
  'ov.policyWait': 'the draw waits for them',
  'ov.policyWalkover': 'they are walked over (the opponent goes on)',
  'ov.policyName': 'Absence rule',
  'ov.here': 'here',
  'ov.absent': 'absent',
  'ov.markAbsent': 'Mark absent',
  'ov.markArrived': 'Mark arrived',
  'ov.markAbsentOf': 'Mark absent: {name}',
  'ov.markArrivedOf': 'Mark arrived: {name}',
  'ov.absentCount': '{n} absent',
  'ov.waitsFor': 'waits: {name} absent',
} as const;
