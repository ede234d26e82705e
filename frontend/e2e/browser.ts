import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { frontendDir } from './stack';

const axeSource = readFileSync(resolve(frontendDir, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
// Screenshots go to an ignored folder, so a test run rewrites no tracked file; to refresh the README's
// pictures, name their folder (relative to the repository): SLOTS_SCREENSHOTS=docs/screenshots npm run e2e.
export const screenshotDir = process.env.SLOTS_SCREENSHOTS
  ? resolve(frontendDir, '..', process.env.SLOTS_SCREENSHOTS)
  : resolve(frontendDir, 'test-results', 'screenshots');

export interface Browser {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

/** Headless Chromium from the system, with a throwaway profile; extra command-line switches (a fake camera) where given. */
export async function openBrowser(viewport = { width: 1280, height: 900 }, extraArgs: string[] = []): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'slots-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport,
    acceptDownloads: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...extraArgs],
  });
  context.setDefaultTimeout(15_000);
  // Every page keeps the Content-Security-Policy violations it meets, for expectAccessible to check.
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface AxeViolation {
  id: string;
  impact: string;
  targets: string[];
}

/**
 * What axe-core finds in the page, after checking that the page's Content-Security-Policy blocked
 * nothing since it loaded. axe is evaluated, not added as a script tag: the policy refuses inline
 * scripts, as it should.
 */
export async function axeViolations(page: Page, label: string): Promise<AxeViolation[]> {
  const blocked = await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
  expect(blocked, `${label}: blocked by the Content-Security-Policy`).toEqual([]);
  await page.evaluate(`${axeSource}\n;undefined`);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** Fails on any serious or critical axe-core violation, or anything the CSP blocked. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const serious = (await axeViolations(page, label)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${label}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}
