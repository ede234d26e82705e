import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, expectAccessible, openBrowser } from './browser';
import { somePlace } from './steps';

// The links SMS carry: a site's cancel points at the place to book again, a reminder at the booking.
const appUrl = inject('appUrl');
const apiUrl = inject('apiUrl');

describe('links from an SMS', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('open the place\'s week from #/place/{id}', async () => {
    const { page } = browser;
    const place = await somePlace(apiUrl, 1);
    await page.goto(`${appUrl}/#/place/${place.id}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte termín');
    expect(await page.locator('.chosen strong').textContent()).toBe(place.name);
    await expect.poll(() => page.locator('button.day').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'week from a place link');

    await page.getByRole('button', { name: 'Zmeniť miesto' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte miesto');
  });

  it('fall back to the place list, saying so, for a place that does not exist', async () => {
    const { page } = browser;
    await page.goto(`${appUrl}/#/place/2147483000`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte miesto');
    expect(await page.getByRole('status').filter({ hasText: 'Miesto z odkazu sme nenašli' }).count()).toBe(1);
    await expect.poll(() => page.locator('.place').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'places after an unknown place link');
  });

  it('fill the code in from #/manage/{code}, sending it nowhere until the person asks', async () => {
    const { page } = browser;
    const sent: string[] = [];
    page.on('request', (request) => sent.push(request.url()));
    await page.goto(`${appUrl}/#/manage/k7q2m-x4p9a`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Moja rezervácia');
    expect(await page.getByLabel('Kód rezervácie').inputValue()).toBe('K7Q2M-X4P9A');
    expect(await page.getByRole('textbox', { name: 'Telefón' }).inputValue()).toBe('');
    expect(sent.filter((url) => url.toUpperCase().includes('K7Q2M'))).toEqual([]);
    await expectAccessible(page, 'manage from a reminder link');

    await page.getByRole('textbox', { name: 'Telefón' }).fill('0905 123 456');
    await page.getByRole('button', { name: 'Vyhľadať' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    expect(sent.filter((url) => url.toUpperCase().includes('K7Q2M'))).toHaveLength(1);
    page.removeAllListeners('request');
  });
});
