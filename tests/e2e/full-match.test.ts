/**
 * The main job, end to end, in real headless Chromium: two server instances share one real Redis (own key
 * prefix); the scorer console on instance 1 scores whole matches while the OBS overlay on instance 2 must show
 * what the rules engine says after every step.
 *
 * - 14-1, race to 25: breaking foul (accepted), a safety with a ball pocketed (sent by a "Stream Deck" over the
 *   REST API of instance 2, so the button path is covered too), three consecutive
 *   fouls (−16, re-rack chosen), a 14-ball re-rack with the break ball in the rack area, undo, the winning run.
 * - Rotation, race to 120: break, push out (shoot), a scratch with the foul placement, two racks, the winner.
 *
 * After every step: the server's state (read from instance 2) equals the engine's `view(replay(setup, steps))`
 * of the steps the test meant to enter; the overlay on instance 2 shows that state's score, run, high run,
 * fouls, rack, balls, turn and caption; the console on instance 1 shows the same score, run and rack.
 * At the end: the winner on the overlay, and the step log fetched over REST replays to the final state.
 * Screenshots: artifacts/screenshots/e2e-*.png.
 * With CI=true a missing Redis or Chromium fails the run; without CI the suite skips and says what to install.
 */
import { caption } from '../../web/src/lib/format';
import { GHOST_TAP_MS, GHOST_TAP_RADIUS_PX } from '../../web/src/scorer/tap-guard';
import '../../web/src/lib/i18n-air'; // every language's on-air strings, for the formatter
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../server/app';
import { replay, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { SetupInput } from '../../shared/protocol/setup';
import type { MatchState } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, createMatch, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();
const redis = await requireRedis();
const STEP_TIMEOUT = 10_000;

let browser: Browser;
let one: RunningServer;
let two: RunningServer;
let prefix: string;
let shots: string;
const pageErrors: string[] = [];

/** What the overlay shows, read from its `data-f` hooks in one go (null = absent or hidden). */
interface OverlayShows {
  score: [string | null, string | null];
  highRun: [string | null, string | null];
  /** Consecutive fouls (pips' data-n) and whether the "on two fouls" warning shows, per player. */
  fouls: [[string | null, boolean], [string | null, boolean]];
  run: string | null;
  rack: string | null;
  balls: string | null;
  lowest: string | null;
  pointsLeft: string | null;
  turn: string | null;
  caption: string | null;
  won: string | null;
}

function overlayShows(page: Page): Promise<OverlayShows> {
  return page.evaluate(() => {
    const q = (f: string) => document.querySelector<HTMLElement>(`[data-f="${f}"]`);
    const text = (f: string) => {
      const el = q(f);
      return !el || el.closest('[hidden]') ? null : el.textContent!.replace(/\u00a0/g, ' '); // visible text: a no-break space is a space
    };
    const visible = (f: string) => {
      const el = q(f);
      return !!el && !el.closest('[hidden]');
    };
    const on = (['A', 'B'] as const).filter((p) => q(`turn-${p}`)?.dataset.on === '1');
    return {
      score: [text('score-A'), text('score-B')],
      highRun: [text('highrun-A'), text('highrun-B')],
      fouls: [
        [q('fouls-A')?.dataset.n ?? null, visible('two-fouls-A')],
        [q('fouls-B')?.dataset.n ?? null, visible('two-fouls-B')],
      ],
      run: text('run'),
      rack: text('rack'),
      balls: text('balls'),
      lowest: text('lowest'),
      pointsLeft: text('points-left'),
      turn: on.length === 1 ? on[0]! : on.length === 0 ? null : 'both',
      caption: text('caption'),
      won: document.querySelector<HTMLElement>('.panel.won')?.dataset.player ?? null,
    } as OverlayShows;
  });
}

/** Scores as the overlay prints them: a true minus sign for negative scores. */
const num = (n: number) => (n < 0 ? `\u2212${-n}` : String(n));

/** What the overlay must show for the engine state `s` (default parameters, English). */
function overlayShould(s: MatchState, before: MatchState | null = null): OverlayShows {
  const rot = s.discipline === 'rotation';
  return {
    score: [num(s.score[0]), num(s.score[1])],
    highRun: [String(s.highRun[0]), String(s.highRun[1])],
    fouls: [
      [String(s.fouls[0]), s.onTwoFouls[0]],
      [String(s.fouls[1]), s.onTwoFouls[1]],
    ],
    // No run box until a run starts (issue 29 §5), none once the match is won.
    run: s.winner || s.run === 0 ? null : String(s.run),
    rack: String(s.rack),
    balls: String(s.ballsOnTable),
    lowest: rot && s.lowestBall !== null ? String(s.lowestBall) : null,
    pointsLeft: rot ? String(s.pointsLeft) : null,
    turn: s.winner ? null : s.turn,
    // The overlay's one caption line is the pages' caption function over the engine's state, merged with what
    // comes next (unit-tested in tests/pages/captions.test.ts and overlay-model.test.ts); here it proves the right
    // state reached the overlay on the other instance. (Opened with caption=0: the line stays until the next.)
    // After an undo (`before`: the state it took back) no old caption shows as new: the pending choice it brought
    // back, else "Correction" where the score changed, else nothing.
    caption:
      before && s.steps <= before.steps
        ? s.awaiting !== null
          ? caption(s, 'en', true) || null
          : before.score[0] !== s.score[0] || before.score[1] !== s.score[1]
            ? 'Correction'
            : null
        : caption(s, 'en', true) || null,
    won: s.winner,
  };
}

/** What the scorer console's score line shows. */
function consoleShows(page: Page): Promise<string[]> {
  return Promise.all(['score-A', 'score-B', 'run', 'rack'].map(async (id) => ((await page.getByTestId(id).textContent()) ?? '').trim()));
}
const consoleShould = (s: MatchState) => [num(s.score[0]), num(s.score[1]), String(s.run), String(s.rack)];

/** One match being scored: the steps the test means to enter, in order (undo included). */
class Scoring {
  readonly steps: Step[] = [];
  version = 0;
  constructor(
    readonly setup: SetupInput,
    readonly match: { id: string; scorerToken: string },
    readonly scorer: Page,
    readonly overlay: Page,
  ) {}

  /** The engine's state after the steps so far. */
  want(): MatchState {
    return view(replay(parseSetup(this.setup), this.steps));
  }

  /**
   * Do `ui` (taps on the console, or an API call), which must record exactly `step`; then check the server
   * (instance 2), the overlay (instance 2) and the console (instance 1) against the engine.
   */
  async step(label: string, step: Step, ui: () => Promise<unknown>): Promise<MatchState> {
    const before = this.want();
    await ui();
    this.steps.push(step);
    this.version++;
    const want = this.want();
    const id = this.match.id;
    await expect
      .poll(async () => (await api(two.url, `/api/matches/${id}`)).body.version, { timeout: STEP_TIMEOUT, message: `${label}: server version` })
      .toBe(this.version);
    const onServer = (await api(two.url, `/api/matches/${id}`)).body as { state: MatchState };
    expect(onServer.state, `${label}: server state vs engine`).toEqual(want);
    await expect
      .poll(() => overlayShows(this.overlay), { timeout: STEP_TIMEOUT, message: `${label}: overlay on instance 2` })
      .toEqual(overlayShould(want, before));
    const last = want.last!;
    if (last.kind !== 'stalemate' && last.kind !== 'undo') {
      // The caption names who took the step, like a commentator ("Ann — third foul −16").
      expect(overlayShould(want).caption, `${label}: caption names the player`).toContain(want.names[last.by === 'A' ? 0 : 1]);
    }
    await this.scorer.locator('[data-testid=status][data-status=live][data-queued="0"]').waitFor({ timeout: STEP_TIMEOUT });
    await expect.poll(() => consoleShows(this.scorer), { timeout: STEP_TIMEOUT, message: `${label}: console on instance 1` }).toEqual(consoleShould(want));
    return want;
  }

  /** Where the tap that recorded the previous step landed. */
  private stepTap: { x: number; y: number } | null = null;

  tap(...testIds: string[]): () => Promise<void> {
    return async () => {
      let waited = false;
      let at = { x: 0, y: 0 };
      for (const t of testIds) {
        const el = this.scorer.getByTestId(t);
        const box = (await el.boundingBox())!;
        at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        // A tap on the spot of the one that changed the panel, right after the change, is taken for the second
        // tap of a double tap (scorer/tap-guard.ts); a referee's next step comes after the shot, so wait as one would.
        const near = this.stepTap && Math.hypot(at.x - this.stepTap.x, at.y - this.stepTap.y) <= GHOST_TAP_RADIUS_PX;
        if (near && !waited) {
          await this.scorer.waitForTimeout(GHOST_TAP_MS);
          waited = true;
        }
        await el.click();
      }
      this.stepTap = at;
    };
  }

  async shot(name: string, page: Page = this.overlay): Promise<void> {
    // Animations (score pop, caption entrance) are fast-forwarded so the picture shows the settled graphics.
    await page.screenshot({ path: join(shots, `e2e-${name}.png`), omitBackground: page === this.overlay, animations: 'disabled' });
  }

  /** The README picture: the overlay over a plain, table-coloured background (the page itself is transparent). */
  async readmeShot(): Promise<void> {
    await this.overlay.evaluate(() => (document.documentElement.style.background = '#1f5130'));
    await this.overlay.screenshot({ path: join(shots, 'e2e-readme-overlay.png'), animations: 'disabled' });
    await this.overlay.evaluate(() => (document.documentElement.style.background = ''));
  }

  /** The step log over REST (instance 1) replays to the state both instances report. */
  async checkLog(): Promise<MatchState> {
    const id = this.match.id;
    const log = (await api(one.url, `/api/matches/${id}/steps`)).body as { version: number; steps: { version: number; step: Step }[] };
    expect(log.version).toBe(this.version);
    expect(log.steps.map((e) => e.version)).toEqual(Array.from({ length: this.version }, (_, i) => i + 1));
    const replayed = view(
      replay(
        parseSetup(this.setup),
        log.steps.map((e) => e.step),
      ),
    );
    for (const server of [one, two]) {
      const cur = (await api(server.url, `/api/matches/${id}`)).body as { version: number; state: MatchState };
      expect(cur.version).toBe(this.version);
      expect(replayed).toEqual(cur.state);
    }
    expect(replayed).toEqual(this.want());
    return replayed;
  }
}

/** Open the console (instance 1, scorer link with the token) and the overlay (instance 2, 1920×1080). */
async function openPages(m: { id: string; scorerToken: string }): Promise<{ scorer: Page; overlay: Page }> {
  const scorer = await browser.newPage({ viewport: { width: 820, height: 1180 }, hasTouch: true });
  const overlay = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  for (const p of [scorer, overlay]) p.on('pageerror', (e) => pageErrors.push(e.message));
  // caption=0 keeps each caption until the next step (the checks poll); moment=1: a moment (re-rack, rack won,
  // match won) hides the caption for a second, then the line and the bar are back.
  // captions=all: every step's caption is compared with the engine's (the default, notable, leaves routine pots out).
  await overlay.goto(`${two.url}/overlay/${m.id}?caption=0&moment=1&captions=all`);
  await scorer.goto(`${one.url}/scorer/${m.id}#token=${encodeURIComponent(m.scorerToken)}`);
  await scorer.locator('[data-testid=status][data-status=live]').waitFor({ timeout: STEP_TIMEOUT });
  await overlay.locator('[data-f="score-A"]').waitFor({ timeout: STEP_TIMEOUT });
  return { scorer, overlay };
}

describe.skipIf(!hasChromium || !redis.available)('a whole match: console on instance 1, overlay on instance 2, one Redis', () => {
  beforeAll(async () => {
    await ensureBuilt();
    prefix = testPrefix('e2e');
    one = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    two = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    browser = await launchChromium();
    shots = screenshotDir();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await one?.close();
    await two?.close();
    if (prefix) await dropPrefix(redis.url, prefix);
  });

  test(
    '14-1 race to 25: breaking foul, safety with a ball pocketed, three fouls, re-rack with the break ball in the rack area, undo, win',
    { timeout: 120_000 },
    async () => {
      const setup: SetupInput = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [25, 25] };
      const m = await createMatch(one.url, setup);
      const { scorer, overlay } = await openPages(m);
      const g = new Scoring(setup, m, scorer, overlay);
      expect(await overlayShows(overlay)).toEqual(overlayShould(g.want()));

      // Opening break: only one object ball reaches a cushion → breaking foul, −2; Bob accepts the table.
      await scorer.getByTestId('break-panel').waitFor();
      let s = await g.step('breaking foul', { shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } }, g.tap('break-obj-1', 'break-record'));
      expect([s.score, s.awaiting, s.turn]).toEqual([[-2, 0], 'break-foul-choice', 'B']);
      await g.shot('141-breaking-foul-overlay');
      expect(await scorer.getByTestId('made').count()).toBe(0); // the pending choice blocks shot entry
      await g.step('accept after the breaking foul', { choice: 'accept' }, g.tap('choice-accept'));

      // Bob runs 4, then plays a safety that pockets a ball (spotted; sent over REST to instance 2).
      s = await g.step('Bob runs 4', { shot: { call: { made: true }, pocketed: 4 } }, g.tap('count-plus', 'count-plus', 'count-plus', 'made'));
      expect([s.score, s.run, s.ballsOnTable]).toEqual([[-2, 4], 4, 11]);
      const safety: Step = { shot: { call: 'safety', pocketed: 1 } };
      s = await g.step('safety with a ball pocketed (Stream Deck, instance 2)', safety, async () => {
        const r = await api(two.url, `/api/matches/${m.id}/steps`, {
          token: m.scorerToken,
          body: { stepId: `deck-${m.id}-1`, expectedVersion: 3, step: safety },
        });
        expect(r.status).toBe(201);
      });
      expect([s.turn, s.ballsOnTable, s.last?.safety]).toEqual(['A', 11, true]);

      // Ann fouls three times in a row (Bob misses in between): the third costs 16; Bob makes her re-rack.
      await g.step('Ann scratches', { shot: { call: { made: false }, cueBall: 'scratch' } }, g.tap('foul', 'foul-scratch'));
      await g.step('Bob misses', { shot: { call: { made: false } } }, g.tap('miss'));
      s = await g.step('Ann: no rail', { shot: { call: { made: false }, rail: false } }, g.tap('foul', 'foul-no-rail'));
      expect(s.onTwoFouls).toEqual([true, false]);
      await g.shot('141-on-two-fouls-overlay');
      await g.readmeShot();
      await g.step('Bob misses again', { shot: { call: { made: false } } }, g.tap('miss'));
      s = await g.step('Ann touches a ball: third foul', { shot: { call: { made: false }, fouls: ['touched-ball'] } }, g.tap('foul', 'foul-touched-ball'));
      expect([s.score, s.awaiting, s.fouls]).toEqual([[-20, 4], 'three-foul-choice', [0, 0]]);
      await g.shot('141-third-foul-overlay');
      await g.shot('141-third-foul-console', scorer);
      await g.step('Bob: re-rack', { choice: 'rerack' }, g.tap('choice-rerack'));
      s = await g.step('Ann re-breaks legally', { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } }, g.tap('break-record'));
      expect([s.rack, s.turn, s.ballsOnTable]).toEqual([2, 'B', 15]);

      // Bob runs 14; the break ball stops in the rack area (head spot free): 14-ball re-rack, break ball on the head spot.
      const run14: Step = {
        shot: { call: { made: true }, pocketed: 14, rackArea: { cueBall: false, breakBall: true, breakBallInKitchen: false, headSpotTaken: false } },
      };
      const enter14 = async () => {
        for (let i = 0; i < 13; i++) await scorer.getByTestId('count-plus').click();
        await scorer.getByTestId('made').click();
        await scorer.getByTestId('rack-area').waitFor();
        await scorer.getByTestId('area-break').click();
        await scorer.getByTestId('q-no').click(); // head spot not taken
        expect(await scorer.getByTestId('placement').textContent()).toMatch(/head spot/i);
      };
      s = await g.step('Bob runs 14, break ball in the rack area', run14, async () => {
        await enter14();
        await g.shot('141-rack-area-console', scorer);
        await scorer.getByTestId('area-record').click();
      });
      expect([s.score, s.run, s.rack, s.rackPlacement]).toEqual([[-20, 18], 14, 3, { cueBall: 'as-is', breakBall: 'head-spot', racked: 14 }]);
      await g.shot('141-rerack-overlay');

      // Undo takes the re-rack back; enter it again.
      s = await g.step('undo the run of 14', { undo: true }, g.tap('undo'));
      expect([s.score, s.rack, s.ballsOnTable, s.highRun]).toEqual([[-20, 4], 2, 15, [0, 4]]);
      s = await g.step('Bob runs 14 again', run14, async () => {
        await enter14();
        await scorer.getByTestId('area-record').click();
      });
      expect([s.score, s.rack]).toEqual([[-20, 18], 3]);

      // Seven more: 25, Bob wins with a run of 21.
      s = await g.step(
        'Bob wins',
        { shot: { call: { made: true }, pocketed: 7 } },
        g.tap('count-plus', 'count-plus', 'count-plus', 'count-plus', 'count-plus', 'count-plus', 'made'),
      );
      expect([s.winner, s.score, s.highRun]).toEqual(['B', [-20, 25], [0, 21]]);
      await scorer.getByTestId('match-over').waitFor();
      expect(await scorer.getByTestId('turn').textContent()).toContain('Bob');
      await g.shot('141-winner-overlay');
      await g.shot('141-winner-console', scorer);

      // The log over REST replays to the final state on both instances.
      const final = await g.checkLog();
      expect(final.winner).toBe('B');

      await scorer.close();
      await overlay.close();
      expect(pageErrors).toEqual([]);
    },
  );

  test('Rotation race to 120: push out, foul placement, two racks, win', { timeout: 120_000 }, async () => {
    const setup: SetupInput = { discipline: 'rotation', players: ['Cleo', 'Dan'] };
    const m = await createMatch(one.url, setup);
    const { scorer, overlay } = await openPages(m);
    const g = new Scoring(setup, m, scorer, overlay);
    const pick = (balls: number[], button: string) => g.tap(...balls.map((b) => `ball-${b}`), button);
    const made = (balls: number[]): Step => ({ shot: { firstContact: balls[0]!, pocketed: balls } });

    // Rack 1. Cleo breaks the 2 and the 9 in (11), then pushes out; Dan takes the shot.
    await scorer.getByTestId('rot-break-panel').waitFor();
    let s = await g.step('break: 2 and 9', { shot: { firstContact: 1, pocketed: [2, 9] } }, pick([2, 9], 'break-record'));
    expect([s.score, s.pushOutAvailable]).toEqual([[11, 0], true]);
    s = await g.step('push out', { shot: { pushOut: true, firstContact: 1 } }, g.tap('push-out'));
    expect([s.awaiting, s.turn]).toEqual(['push-out-choice', 'B']);
    await g.shot('rotation-push-out-overlay');
    await g.step('Dan shoots after the push out', { choice: 'shoot' }, g.tap('choice-shoot'));

    // Dan pockets the 1 but scratches: Cleo places the cue ball behind the head string, the 1 on the foot spot.
    s = await g.step(
      'Dan pockets the 1 and scratches',
      { shot: { firstContact: 1, pocketed: [1], cueBall: 'scratch' } },
      g.tap('ball-1', 'foul', 'foul-scratch'),
    );
    expect([s.awaiting, s.turn, s.fouls]).toEqual(['foul-placement', 'A', [0, 1]]);
    await scorer.getByTestId('choice-panel').waitFor();
    expect(await scorer.getByTestId('place-as-is-as-is').count()).toBe(0); // cue ball pocketed, 1 respotted
    await g.shot('rotation-placement-console', scorer);
    s = await g.step('Cleo: kitchen, 1 on the foot spot', { choice: { cueBall: 'kitchen', lowestBall: 'foot-spot' } }, g.tap('place-kitchen-foot-spot'));
    expect([s.turn, s.ballInHand, s.lowestBall]).toEqual(['A', 'kitchen', 1]);

    await g.step('Cleo: 1 and 3', made([1, 3]), pick([1, 3], 'record'));
    await g.step('Cleo: 4, 5, 6', made([4, 5, 6]), pick([4, 5, 6], 'record'));
    await g.step('Cleo misses', { shot: { firstContact: 7 } }, g.tap('miss'));
    await g.step('Dan: 7 and 8', made([7, 8]), pick([7, 8], 'record'));
    await g.step('Dan: 10, 11, 12', made([10, 11, 12]), pick([10, 11, 12], 'record'));
    // The last three balls: the console asks where the cue ball stopped (R-11 decides who breaks rack 2).
    s = await g.step('Dan clears rack 1', { shot: { firstContact: 13, pocketed: [13, 14, 15], cueBallInKitchen: false } }, async () => {
      await pick([13, 14, 15], 'record')();
      await scorer.getByTestId('kitchen-q').waitFor();
      await scorer.getByTestId('kitchen-no').click();
    });
    expect([s.score, s.rack, s.ballsOnTable, s.breakShot, s.highRun]).toEqual([[30, 90], 2, 15, true, [19, 90]]);
    await g.shot('rotation-rack-won-overlay');

    // Rack 2: Cleo breaks (four balls to a cushion, none in); Dan needs 30.
    s = await g.step('rack 2 break', { shot: { firstContact: 1, breakRails: { objectBalls: 4 } } }, g.tap('break-4'));
    expect([s.turn, s.pushOutAvailable]).toEqual(['B', true]);
    await g.step('Dan: 1, 2, 3', made([1, 2, 3]), pick([1, 2, 3], 'record'));
    await g.step('Dan misses', { shot: { firstContact: 4 } }, g.tap('miss'));
    await g.step('Cleo: 4 and 5', made([4, 5]), pick([4, 5], 'record'));
    await g.step('Cleo misses', { shot: { firstContact: 6 } }, g.tap('miss'));
    await g.step('Dan: 6, 7, 8', made([6, 7, 8]), pick([6, 7, 8], 'record'));
    s = await g.step('Dan: the 9 wins', made([9]), pick([9], 'record'));
    expect([s.winner, s.score, s.rackPoints]).toEqual(['B', [39, 126], [9, 36]]);
    await scorer.getByTestId('match-over').waitFor();
    await g.shot('rotation-winner-overlay');

    const final = await g.checkLog();
    expect(final.winner).toBe('B');
    await scorer.close();
    await overlay.close();
    expect(pageErrors).toEqual([]);
  });
});
