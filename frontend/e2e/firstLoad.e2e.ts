import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, type Browser, openBrowser } from './browser';

const appUrl = inject('appUrl');

// The booking page as a citizen's phone first meets it (issue #27): only the booking flow is
// downloaded, nothing fails or is blocked, the staff screens are not advertised, and axe finds
// nothing at all, in either language. Its speed is measured, not timed here: docs/page-speed.md.
describe('the booking page as a phone first loads it', () => {
  let phone: Browser;

  beforeAll(async () => {
    phone = await openBrowser({ width: 390, height: 844 });
  });
  afterAll(async () => {
    await phone?.close();
  });

  it('fetches only the files the page names, without an error, and links no staff screen', async () => {
    const { page } = phone;
    const assets: string[] = [];
    const failed: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/assets/')) assets.push(path);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const html = await (await fetch(`${appUrl}/`)).text();
    const named = [...html.matchAll(/(?:src|href)="\.(\/assets\/[^"]+)"/g)].map((m) => m[1]);

    await page.goto(appUrl);
    await expect.poll(() => page.locator('.place').count()).toBeGreaterThan(0);
    expect(assets.sort()).toEqual(named.sort());
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.locator('link[rel="icon"]').count()).toBe(1);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/^.{50,160}$/);
    expect(await page.locator('header a').allTextContents()).toEqual(['Slots', 'Rezervovať', 'Moja rezervácia']);

    // The staff screen is there for whoever types its address, and only then downloaded.
    await page.goto(`${appUrl}/#/admin`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Správa');
    expect(assets.length).toBeGreaterThan(named.length);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('offers a reload when a screen loaded on demand cannot be fetched', async () => {
    const broken = await openBrowser({ width: 390, height: 844 });
    try {
      const manageChunk = /\/assets\/ManagePage-[^/]+\.js$/;
      await broken.page.route(manageChunk, (route) => route.abort('connectionfailed'));
      await broken.page.goto(`${appUrl}/#/manage`);
      const notice = broken.page.getByRole('alert').filter({ hasText: 'Údaje sa nepodarilo načítať.' });
      await expect.poll(() => notice.count()).toBe(1);

      await broken.page.unroute(manageChunk);
      await notice.getByRole('button', { name: 'Skúsiť znova' }).click();
      await expect.poll(() => broken.page.locator('h1').textContent()).toBe('Moja rezervácia');
    } finally {
      await broken.close();
    }
  });

  it('has no axe violations at all, in Slovak and in English', async () => {
    const { page } = phone;
    await page.goto(appUrl);
    await page.reload();
    await expect.poll(() => page.locator('.place').count()).toBeGreaterThan(0);
    expect(await axeViolations(page, 'booking page in Slovak')).toEqual([]);

    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Choose a place');
    expect(await axeViolations(page, 'booking page in English')).toEqual([]);
    await page.getByRole('button', { name: 'Slovensky' }).click();
  });
});
