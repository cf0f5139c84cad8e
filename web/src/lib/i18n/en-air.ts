/**
 * On-air strings in English: what the OBS overlay shows (scorebug labels, the caption of the last step, the
 * situation line, connection words, panel badges, moments, the not-found card) — the reference table every
 * language's on-air table must cover. Every page may show these; the overlay ships only these, and only its
 * own language's table (the other pages' words are in ./en-pages.ts).
 * Keys with a dot are built from outcome facts (`o.*` step words, `foul.*` reasons, `pl.*` placements) or
 * name a moment (`m.*`).
 */
export const en = {
  // scorebug
  raceTo: 'Race to {n}',
  straightPool: '14-1',
  rotation: 'Rotation',
  run: 'Run',
  highRun: 'High run',
  onTwoFouls: 'On 2 fouls',
  rack: 'Rack',
  ballsOnTable: 'Balls on table',
  lowestBall: 'Lowest ball',
  ballsLeft: 'Balls left',
  pointsLeft: 'Points left',
  innings: 'Innings',
  correction: 'Correction',
  rackPoints: 'Rack points',
  racksWon: 'Racks won',
  average: 'Average',
  // the corner bug's pairs ("Racks 1–0"): short forms of the three above
  racksWonShort: 'Racks',
  rackPointsShort: 'This rack',
  averageShort: 'Avg',
  offline: 'offline',
  connecting: 'connecting…',
  live: 'live',
  // situation: what is pending
  wins: '{name} wins',
  toChooseBreakFoul: '{name} to choose: accept the table or re-break',
  toChooseThreeFoul: '{name} to choose: accept the table or re-rack',
  toChoosePushOut: '{name} to choose: shoot or pass',
  toChooseIllegalBreak: '{name} to choose: accept or re-rack',
  toPlace: '{name} places the balls after the foul',
  ballInHandKitchen: '{name}: ball in hand behind the head string',
  ballInHandAnywhere: '{name}: ball in hand',
  toBreak: '{name} to break',
  // what a step did (captions and recent-step lines)
  'o.points': '{name} +{n}',
  'o.pointsBalls': '{name} +{n} ({balls})',
  'o.run': 'run {run}',
  'o.miss': '{name} misses',
  'o.safety': '{name} plays safe',
  'o.runEnded': 'run ends at {run}',
  'o.spotted': '{n} spotted',
  'o.respotted': '{balls} respotted',
  'o.foul': '{name} — {what}',
  'o.foulOnBreak': 'foul on the break: {what}',
  'o.foulOnPushOut': 'foul on the push out: {what}',
  'o.breakingFoul': 'breaking foul',
  'o.thirdFoul': 'third foul',
  'o.detail': '{what} ({detail})',
  'o.onTwoFouls': 'on two fouls',
  'o.rerack': 're-rack, {n} balls',
  'o.rackOver': 'end of rack {n}',
  'o.clinched': 'rack clinched at {n}',
  'o.tieBreak': 'tie-break +1',
  'o.pushOut': '{name} pushes out',
  'o.accept': '{name} accepts the table',
  'o.rebreak': '{name} chooses a re-break',
  'o.rerackChoice': '{name} chooses a re-rack',
  'o.shoot': '{name} shoots',
  'o.pass': '{name} passes it back',
  'o.placed': '{name} places the balls: {what}',
  'o.stalemate': 'Stalemate: re-rack, {n} balls',
  'o.warned': '{name} warned: on two fouls',
  'o.undone': 'Undone: {what}',
  'o.listSep': ', ',
  'o.ballSep': ', ',
  'o.foulSep': ' + ',
  // why a shot was a foul (Outcome.fouls)
  'foul.scratch': 'scratch',
  'foul.cue-ball-off-table': 'cue ball off the table',
  'foul.no-contact': 'no contact',
  'foul.wrong-ball': 'wrong ball first ({n})',
  'foul.ball-off-table': 'ball off the table',
  'foul.no-rail': 'no rail',
  'foul.touched-ball': 'touched ball',
  'foul.double-hit': 'double hit',
  'foul.feet-off-floor': 'feet off the floor',
  'foul.push-shot': 'push shot',
  'foul.balls-moving': 'shot while balls moved',
  'foul.bad-cue-ball-placement': 'bad cue-ball placement',
  'foul.cue-on-table': 'cue on the table',
  'foul.slow-play': 'slow play',
  'foul.time': 'time foul (shot clock)',
  'foul.other': 'foul',
  'foul.illegal-break': 'illegal break',
  // Rotation foul placement as a caption names it: the cue ball left as is, the lowest ball (the scorer's
  // other cue-ball words are in ./en-pages.ts)
  'pl.cue.as-is': 'cue ball as is',
  'pl.low.as-is': '{n} as is',
  'pl.low.center-spot': '{n} on the centre spot',
  'pl.low.foot-spot': '{n} on the foot spot',
  // the overlay's own: panel badge, moments (a larger card for a few seconds), the not-found card
  winner: 'Winner',
  score: 'Score',
  playerKey: 'Player {p}',
  'm.matchWon': 'Match won',
  'm.rackWon': 'Rack {n} won',
  'm.rerack': 'Re-rack',
  'm.highRun': 'New high run of the match',
  'm.highRuns': 'High runs',
  'm.previousBest': 'Previous best',
  notFoundMsg: 'Match not found: {msg}',
  noIdInUrl: 'No match in this address',
  checkObsUrl: 'Check the overlay URL in OBS:',
};

/** A key of the on-air strings. */
export type AirKey = keyof typeof en;
/** One language's on-air table: every key of the English one. */
export type AirDict = Record<AirKey, string>;
