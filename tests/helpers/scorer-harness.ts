/**
 * What every scorer-console page suite needs: a real in-process server (the embedded SQLite store in a temp dir),
 * one headless Chromium, phone-size pages, the REST calls the tests check the server with, and a static-only
 * server for "the page loads but the server does not answer". Call `install()` inside the suite's `describe`
 * so a skipped suite (no Chromium) starts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { MatchState } from '../../shared/protocol/state';
import { launchChromium, screenshotDir } from './browser';
import { REPO_ROOT, startTestServer } from './server';
import { ensureBuilt } from './global-setup';

/** Phone viewport the console is tested at. */
export const PHONE = { width: 390, height: 844 };

/** `POST /api/matches` reply, as the tests use it. */
export interface Created {
  id: string;
  scorerToken: string;
  urls: { scorer: string };
}

/** Server, browser and helpers for one scorer page suite. */
export class ScorerHarness {
  server!: RunningServer;
  browser!: Browser;
  /** Folder for screenshots (artifacts/screenshots). */
  shots = '';
  private dataDir = '';
  private stepSeq = 0;

  /**
   * @param tmpPrefix prefix of the temp data folder; @param settleMs how long `settled` waits.
   */
  constructor(
    private readonly tmpPrefix: string,
    private readonly settleMs = 10_000,
  ) {}

  /** Register the suite's beforeAll / afterAll (call inside `describe`). */
  install(): void {
    beforeAll(async () => {
      await ensureBuilt();
      this.dataDir = mkdtempSync(join(tmpdir(), this.tmpPrefix));
      this.server = await startTestServer({ dataDir: this.dataDir });
      this.browser = await launchChromium();
      this.shots = screenshotDir();
    }, 180_000);
    afterAll(async () => {
      await this.browser?.close();
      await this.server?.close();
      if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
    });
  }

  /** Start the server again on `port` with the same store (after a test stopped it: "the Wi-Fi is back"). */
  restartServer = async (port: number): Promise<void> => {
    this.server = await startTestServer({ dataDir: this.dataDir, port });
  };

  /** GET/POST against the test server; throws with the body on a non-2xx answer. */
  api = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const res = await fetch(`${this.server.url}${path}`, init);
    const body = (await res.json()) as T;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };

  create = (setup: object) =>
    this.api<Created>('/api/matches', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(setup) });

  stateOf = (id: string) => this.api<{ state: MatchState; version: number }>(`/api/matches/${id}`);

  stepsOf = async (id: string) => (await this.api<{ steps: { version: number; stepId: string; step: unknown }[] }>(`/api/matches/${id}/steps`)).steps;

  /** Another device records a step over REST (a fresh step id unless one is given). */
  recordAs = (m: Created, step: object, stepId = `other-device-${++this.stepSeq}`) =>
    this.api(`/api/matches/${m.id}/steps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${m.scorerToken}` },
      body: JSON.stringify({ stepId, step }),
    });

  /** A new phone-size, touch context and page; page errors are logged. */
  phone = async (): Promise<{ ctx: BrowserContext; page: Page }> => {
    const ctx = await this.browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    return { ctx, page };
  };

  /** Open a scorer link on a new phone page (or in `ctx`) and wait until the console is live. */
  openScorer = async (url: string, ctx?: BrowserContext, beforeLoad?: (page: Page) => Promise<unknown>): Promise<{ ctx: BrowserContext; page: Page }> => {
    let opened: { ctx: BrowserContext; page: Page };
    if (ctx) {
      const page = await ctx.newPage();
      page.on('pageerror', (e) => console.error('[page error]', e.message));
      opened = { ctx, page };
    } else opened = await this.phone();
    if (beforeLoad) await beforeLoad(opened.page);
    await opened.page.goto(url);
    await opened.page.locator('[data-testid=status][data-status=live]').waitFor({ timeout: 10_000 });
    return opened;
  };

  /** Wait until the server is at `version` and the console has nothing queued; the server's state then. */
  settled = async (page: Page, id: string, version: number): Promise<MatchState> => {
    await expect.poll(async () => (await this.stateOf(id)).version, { timeout: this.settleMs }).toBe(version);
    await page.locator('[data-testid=status][data-status=live][data-queued="0"]').waitFor({ timeout: this.settleMs });
    return (await this.stateOf(id)).state;
  };

  /** Text of the first element with this test id, white space folded. */
  text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** Serve only the built pages on `port` (no API, no Socket.IO): the page loads, the server does not answer. */
export async function staticOnly(port: number): Promise<{ close(): Promise<void> }> {
  const dist = join(REPO_ROOT, 'web', 'dist');
  const app = express();
  app.get('/scorer/:id', (_req, res) => res.sendFile(join(dist, 'scorer.html')));
  app.use(express.static(dist));
  const srv = createServer(app);
  await new Promise<void>((ok) => srv.listen(port, '127.0.0.1', ok));
  return {
    close: () =>
      new Promise<void>((ok) => {
        srv.closeAllConnections();
        srv.close(() => ok());
      }),
  };
}
