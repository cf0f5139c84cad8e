/**
 * The scorebug's states and moments the overlay's box test (overlay-box.test.ts) measures and, with `SHOTS=1`, shows
 * as composites over the pool table (docs/screenshots/overlay-v3/): each a set-up, the steps recorded before the page opens (`before`)
 * and the steps recorded while it is open (`live`: a moment only shows for a step the page sees happen).
 * Long Latin names (a hyphenated family name), a CJK name, flags, three-digit and negative scores, on 2 fouls,
 * a handicap, Rotation's second row (racks won and this rack's points), 14-1's innings and average; the shot
 * clock's segment and extension markers (running with four digits, warning, urgent, expired, paused with
 * extensions used, the count form with `hide=info`).
 */
import type { Step } from '../../shared/protocol/steps';
import type { ShotClockAction, ShotClockSettings } from '../../shared/shot-clock';

/** A scene's shot clock: the settings PUT on the match, the presses (REST) after, and the status then shown. */
export interface SceneClock {
  settings: ShotClockSettings;
  presses: ShotClockAction[];
  status: 'running' | 'paused' | 'expired';
}

export interface Scene {
  name: string;
  setup: Record<string, unknown>;
  before: Step[];
  live: Step[];
  /** Extra URL parameters the scene needs (`show=balls`). */
  query: string;
  /** The moment the live steps put up, if any (data-kind). */
  moment: 'rerack' | 'high-run' | 'match-won' | 'rack-won' | null;
  /** The shot clock the scene runs (set once on its match, which the scene then keeps), if any. */
  clock?: SceneClock;
  /**
   * Items that must be on air whole in every layout, size and language (none may leave its line), by the start
   * of their `data-f` hook: `racks-won` is each player's in the bar (`racks-won-A`), the pair in the corner bug.
   */
  shown?: string[];
}

/**
 * Shot-clock settings: every allowance `seconds` (3600, the largest, draws the widest figure), warning and urgent
 * from the given seconds, always on air, `extensions` per player per rack (30 s each), then `more` over them.
 */
export function clockSettings(seconds: number, warning: number, urgent: number, extensions = 1, more: Partial<ShotClockSettings> = {}): ShotClockSettings {
  return {
    shotSeconds: seconds,
    firstShotSeconds: seconds,
    pushOutSeconds: seconds,
    extensionSeconds: 30,
    extensionsPerPlayer: extensions,
    extensionPeriod: { per: 'rack' },
    warningSeconds: warning,
    urgentSeconds: urgent,
    showFromSeconds: null,
    autoStart: false,
    matchClock: { kind: 'off' },
    ...more,
  };
}

const pot = (b: number): Step => ({ shot: { call: { ball: b }, pocketed: [b] } });
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const MISS: Step = { shot: { call: { made: false } } };
const NAMES = ['Marcus Holloway-Brennan', 'Kenji Watanabe'];
const LONG = ['Maximilian Alexander von Hohenberg-Castellano', '渡辺健二郎'];
/** Rotation rack 1 cleared by A ball by ball (A reaches 61: one rack won), then rack 2: a break that pots 1 and 9, a miss. */
const ROTATION_RACK_1: Step[] = Array.from({ length: 15 }, (_, i) => ({ shot: { pocketed: [i + 1] } }));

export const SCENES: Scene[] = [
  {
    name: 'run',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: NAMES,
      countries: ['GB-ENG', 'JP'],
      targets: [125, 125],
      start: { score: [87, 64], highRun: [23, 41], innings: [11, 11], turn: 'A', ballsOnTable: 15 },
    },
    before: [pot(1), pot(2), pot(3), pot(4), pot(5), pot(6), pot(7)],
    live: [],
    query: '',
    moment: null,
  },
  {
    name: 'fouls',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: LONG,
      countries: ['DE', null],
      targets: [150, 150],
      start: { score: [-12, 137], fouls: [2, 2], highRun: [3, 88], turn: 'B', innings: [20, 20], ballsOnTable: 9 },
    },
    before: [pot(1), pot(2)],
    live: [],
    query: '&show=innings',
    moment: null,
  },
  {
    name: 'handicap',
    setup: { discipline: '14-1', ruleset: 'nba', players: NAMES, targets: [60, 40], start: { score: [12, 31], turn: 'B', ballsOnTable: 12 } },
    before: [pot(1)],
    live: [],
    query: '',
    moment: null,
  },
  {
    name: 'rotation',
    setup: { discipline: 'rotation', players: NAMES, countries: ['GB-ENG', 'JP'], targets: [120, 120] },
    before: [{ shot: { pocketed: [1, 9] } }, { shot: { pocketed: [2] } }, { shot: { firstContact: 3, pocketed: [3, 11] } }],
    live: [],
    query: '&show=balls',
    moment: null,
  },
  {
    name: 'rotation-racks',
    setup: { discipline: 'rotation', players: NAMES, countries: ['GB-ENG', 'JP'], targets: [360, 360] },
    before: [...ROTATION_RACK_1, { shot: { pocketed: [1, 9] } }, { shot: { pocketed: [] } }],
    live: [],
    query: '',
    moment: null,
    shown: ['racks-won', 'rack-points'],
  },
  {
    name: 'innings-average',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: NAMES,
      countries: ['GB-ENG', 'JP'],
      targets: [150, 150],
      start: { score: [87, 104], highRun: [23, 41], innings: [23, 22], turn: 'B', ballsOnTable: 11 },
    },
    before: [pot(1), pot(2), MISS],
    live: [],
    query: '&show=innings,average',
    moment: null,
    shown: ['innings', 'average'],
  },
  {
    name: 'rerack',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: NAMES,
      countries: ['GB-ENG', 'JP'],
      targets: [150, 150],
      start: { score: [48, 71], highRun: [9, 22], turn: 'A', ballsOnTable: 15 },
    },
    before: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map(pot),
    live: [pot(14)],
    query: '',
    moment: 'rerack',
  },
  {
    name: 'high-run',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: NAMES,
      countries: ['GB-ENG', 'JP'],
      targets: [150, 150],
      start: { score: [40, 52], highRun: [8, 11], turn: 'B', ballsOnTable: 15 },
    },
    before: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(pot),
    live: [MISS],
    query: '',
    moment: 'high-run',
  },
  {
    name: 'match-won',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: NAMES,
      countries: ['GB-ENG', 'JP'],
      targets: [50, 50],
      start: { score: [20, 47], highRun: [20, 32], turn: 'B', ballsOnTable: 10 },
    },
    before: [pot(1), pot(2)],
    live: [pot(3)],
    query: '',
    moment: 'match-won',
  },
  {
    name: 'rack-won',
    // B runs out the last six balls of the rack: 33 rack points before, 75 after the live shot, so B reached 61 and
    // won the rack (R-13; a match started mid-rack knows only the rack points scored since).
    setup: {
      discipline: 'rotation',
      players: NAMES,
      countries: ['GB-ENG', 'JP'],
      targets: [120, 120],
      start: { turn: 'B', onTable: [10, 11, 12, 13, 14, 15] },
    },
    before: [{ shot: { firstContact: 10, pocketed: [10] } }, { shot: { firstContact: 11, pocketed: [11] } }, { shot: { firstContact: 12, pocketed: [12] } }],
    live: [{ shot: { firstContact: 13, pocketed: [13, 14, 15] } }],
    query: '&show=balls',
    moment: 'rack-won',
  },
  {
    name: 'clock-running',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: NAMES,
      countries: ['GB-ENG', 'JP'],
      targets: [125, 125],
      start: { score: [87, 64], highRun: [23, 41], innings: [11, 11], turn: 'A', ballsOnTable: 15 },
    },
    before: [pot(1), pot(2), pot(3)],
    live: [],
    query: '',
    moment: null,
    clock: { settings: clockSettings(3600, 10, 5), presses: ['start'], status: 'running' },
  },
  {
    name: 'clock-warning',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: LONG,
      countries: ['DE', null],
      targets: [150, 150],
      start: { score: [-12, 137], fouls: [2, 2], highRun: [3, 88], turn: 'B', innings: [20, 20], ballsOnTable: 9 },
    },
    before: [pot(1), pot(2)],
    live: [],
    query: '&show=innings',
    moment: null,
    clock: { settings: clockSettings(3600, 3600, 5), presses: ['start'], status: 'running' },
  },
  {
    name: 'clock-urgent',
    setup: { discipline: 'rotation', players: NAMES, countries: ['GB-ENG', 'JP'], targets: [120, 120] },
    before: [{ shot: { pocketed: [1, 9] } }, { shot: { pocketed: [2] } }, { shot: { firstContact: 3, pocketed: [3, 11] } }],
    live: [],
    query: '&show=balls',
    moment: null,
    clock: { settings: clockSettings(3600, 3600, 3600), presses: ['start'], status: 'running' },
  },
  {
    name: 'clock-expired',
    setup: { discipline: '14-1', ruleset: 'nba', players: NAMES, targets: [60, 40], start: { score: [12, 31], turn: 'B', ballsOnTable: 12 } },
    before: [pot(1)],
    live: [],
    query: '',
    moment: null,
    clock: { settings: clockSettings(1, 10, 5), presses: ['start'], status: 'expired' },
  },
  {
    name: 'clock-extensions',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: NAMES,
      countries: ['GB-ENG', 'JP'],
      targets: [125, 125],
      start: { score: [87, 64], highRun: [23, 41], turn: 'A', ballsOnTable: 15 },
    },
    before: [pot(1)],
    live: [],
    query: '&show=innings',
    moment: null,
    clock: { settings: clockSettings(60, 10, 5, 3), presses: ['start', 'extension', 'pause'], status: 'paused' },
  },
  {
    name: 'clock-hide-info',
    setup: {
      discipline: '14-1',
      ruleset: 'nba',
      players: LONG,
      countries: ['DE', null],
      targets: [150, 150],
      start: { score: [-12, 137], turn: 'B', ballsOnTable: 9 },
    },
    before: [pot(1)],
    live: [],
    query: '&hide=info',
    moment: null,
    clock: { settings: clockSettings(3600, 10, 5, 12), presses: ['start', 'extension'], status: 'running' },
  },
];

/** Shown before the first shot: a break by A then a miss by B (stepsToWin's opening), for scenes that need one. */
export const OPENING: Step[] = [BREAK, MISS];
