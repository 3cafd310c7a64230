// Browser tests: the whole product in-process (API + worker + the built Next app on one port, a fresh
// database), driven by real headless Chromium through playwright-core. Sets up its own browser
// (Debian's chromium, installed with apt-get when missing) and builds the web app when stale.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { App, AppOptions } from '../../server/app.ts';
import type { RunningServer } from '../../server/http/server.ts';
import { createWebHandler } from '../../server/http/web.ts';
import { buildWeb, webBuildIsStale } from '../../server/web-build.mjs';
import { startTestApp, type Seeded } from './app.ts';
import { CHROMIUM, ensureChromium } from './chromium.ts';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const SHOTS = join(ROOT, 'test-results/web');

/** The test runner builds once before the tests; a file run alone builds here when needed. */
export function ensureWebBuild(): void {
  if (!webBuildIsStale(ROOT)) return;
  console.log('› building the web app for the browser tests');
  if (!buildWeb(ROOT, 'inherit')) throw new Error('next build failed');
}

export type WebApp = { app: App; server: RunningServer; url: string; a: Seeded; b: Seeded; filesDir: string; close(): Promise<void> };

export async function startWebApp(label: string, appOpts: AppOptions = {}): Promise<WebApp> {
  ensureWebBuild();
  const dataDir = mkdtempSync(join(tmpdir(), `atelier-web-${label}-`));
  // A browser test loads many pages a minute with one session; the per-token rate limit (tested on
  // its own, over every transport) would otherwise turn a slow run's page into a RATE_LIMITED error.
  const t = await startTestApp(label, { dataDir, eventPollMs: 500, rateLimitPerMinute: 100_000 }, appOpts, { web: await createWebHandler(), worker: { concurrency: 2 } });
  return {
    app: t.app,
    server: t.server,
    url: t.url,
    a: t.a,
    b: t.b,
    filesDir: join(dataDir, 'files'),
    close: async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launch(): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  ensureChromium();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { browser, context, page };
}

export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  // The studio scrolls inside its panels: grow the viewport so the picture shows all of the task.
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  const needed = await page.evaluate(() => Math.max(0, ...[...document.querySelectorAll('.task-area')].map((e) => e.scrollHeight + 60)));
  if (needed > size.height) await page.setViewportSize({ width: size.width, height: Math.min(needed, 3000) });
  await page.screenshot({ path, fullPage: true });
  if (needed > size.height) await page.setViewportSize(size);
  return path;
}

export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/signin`);
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${url}/`);
  await page.getByRole('heading', { name: 'Main thread' }).waitFor();
}

/** A GraphQL request as the web app's owner (for setting up what a browser test then looks at); fails on any error. */
export async function ownerGql<T>(w: Pick<WebApp, 'url' | 'a'>, query: string, variables: Record<string, unknown>): Promise<T> {
  const r = await fetch(`${w.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${w.a.ownerToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await r.json()) as { data?: T; errors?: unknown[] };
  if (body.errors?.length) throw new Error(JSON.stringify(body.errors));
  return body.data!;
}
