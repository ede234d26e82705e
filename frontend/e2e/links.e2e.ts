import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, expectAccessible, openBrowser } from './browser';
import { getJson, somePlace } from './steps';

// The links SMS carry: a site's cancel points at the place to book again, a reminder at the booking;
// and the booking deep links a vaccine finder takes from the SMART Scheduling Links publication.
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

  it('open a vaccine finder\'s deep link at the slot\'s week and day with its time picked', async () => {
    const { page } = browser;
    const manifest = await getJson<{ output: { type: string; url: string }[] }>(`${apiUrl}/fhir/$bulk-publish`);
    const slots: FhirSlot[] = [];
    for (const file of manifest.output.filter((o) => o.type === 'Slot')) {
      const text = await (await fetch(file.url, { signal: AbortSignal.timeout(10_000) })).text();
      slots.push(...text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as FhirSlot));
    }
    // The default service's slots: their links end at the time (another service's name it after it, and
    // other files may have made such services by now).
    const linked = slots
      .filter((s) => s.status === 'free')
      .map((s) => ({ link: s.extension.find((e) => e.url.endsWith('/booking-deep-link'))!.valueUrl!, start: s.start }))
      .filter((l) => /\/\d{2}:\d{2}$/.test(l.link))
      .sort((a, b) => a.start.localeCompare(b.start));
    // A slot at least a week and a day away, so the link must move the week as well as the day.
    const later = linked.find((l) => Date.parse(l.start) > Date.now() + 8 * 86_400_000) ?? linked[linked.length - 1];
    const [, placeId, day, time] = /#\/place\/(\d+)\/(\d{4}-\d{2}-\d{2})\/(\d{2}:\d{2})$/.exec(later.link)!;
    expect(later.link.startsWith(`${appUrl}/#/place/`)).toBe(true);
    const place = await getJson<{ name: string }>(`${apiUrl}/api/places/${placeId}`);

    await page.goto(later.link);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vaše údaje');
    const chosen = await page.locator('.chosen').textContent();
    expect(chosen).toContain(place.name);
    expect(chosen).toContain(time);
    await page.getByRole('button', { name: 'Zmeniť termín' }).click();
    await expect.poll(() => page.locator(`button.day[data-day="${day}"]`).getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator(`button.slot[data-time="${time}"]`).isEnabled()).toBe(true);
    await expectAccessible(page, 'week from a vaccine finder\'s deep link');
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

/** What the test reads of a SMART Scheduling Links Slot (FHIR R4). */
interface FhirSlot {
  status: 'free' | 'busy';
  start: string;
  extension: { url: string; valueUrl?: string }[];
}
