import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Availability, Place, Reservation } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { fillPerson, getJson, newPerson } from './steps';

// A place with two services (an antigen and a PCR test) through the served page: the person chooses the
// service before the week, sees that service's seats only, and books it; a finder's deep link that names a
// service opens that service's week with the time picked. What the page says is checked against the API.
const appUrl = inject('appUrl');
const apiUrl = inject('apiUrl');
const adminKey = { 'X-Api-Key': 'dev-admin-key-0000' }; // appsettings.Development.json

async function send<T>(method: string, url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method, headers: { ...adminKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const freeAt = async (placeId: number, service: string, day: string, time: string) =>
  (await getJson<Availability>(`${apiUrl}/api/places/${placeId}/availability?from=${day}&to=${day}&service=${service}`))
    .days[0].slots.find((s) => s.time === time)?.free;

describe('a place with two services', () => {
  let browser: Browser;
  let place: Place;
  // Codes are the catalogue's, shared by every place: one pair per run of the shared API.
  const run = Date.now().toString(36);
  const antigen = `antigen-${run}`;
  const pcr = `pcr-${run}`;
  const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    place = await send<Place>('POST', `${apiUrl}/api/admin/places`,
      { name: 'Odberné miesto Služby', address: 'Testovacia 3, Bratislava', region: 'Bratislavský kraj', timeZone: 'Europe/Bratislava' });
    for (const [code, nameSk, nameEn, first] of [[antigen, 'Antigénový test', 'Antigen test', '08:00'], [pcr, 'PCR test', 'PCR test', '09:00']]) {
      await send('POST', `${apiUrl}/api/admin/services`, { code, nameSk, nameEn });
      await send('PUT', `${apiUrl}/api/admin/places/${place.id}/services/${code}`, {
        seats: 2, template: { firstStart: first, lastStart: first, intervalMinutes: 15, lengthMinutes: 15 },
      });
      await send('POST', `${apiUrl}/api/admin/slots/generate`, { placeIds: [place.id], from: day, to: day, service: code });
    }
    // The place offers the two tests only.
    await send('PUT', `${apiUrl}/api/admin/places/${place.id}/services/default`, { active: false });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('asks which service first, shows that service\'s times, and books it', async () => {
    const { page } = browser;
    await page.goto(`${appUrl}/#/place/${place.id}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte službu');
    await expectAccessible(page, 'service step');
    await screenshot(page, 'service-step');
    await page.getByRole('button', { name: /PCR test/ }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte termín');
    expect(await page.locator('.chosen-service strong').textContent()).toBe('PCR test');
    await page.locator(`button.day[data-day="${day}"]`).click();
    // PCR runs at 09:00 only; antigen's 08:00 is not among its times.
    await expect.poll(() => page.locator('button.slot').evaluateAll((b) => b.map((e) => e.getAttribute('data-time')))).toEqual(['09:00']);
    await page.locator('button.slot[data-time="09:00"]').click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vaše údaje');
    await fillPerson(page, newPerson());
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/reservations') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    const booked = (await (await answered).json()) as Reservation & { service?: string };
    expect(booked.service).toBe(pcr);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
    expect(await page.locator('.details').textContent()).toContain('PCR test');
    expect(await freeAt(place.id, pcr, day, '09:00')).toBe(1);
    expect(await freeAt(place.id, antigen, day, '08:00')).toBe(2);
  });

  it('opens a finder\'s deep link naming a service at that service\'s time, and books it', async () => {
    const { page } = browser;
    await page.goto(`${appUrl}/#/place/${place.id}/${day}/08:00/${antigen}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vaše údaje');
    expect(await page.locator('.chosen').textContent()).toContain('Antigénový test');
    await fillPerson(page, newPerson());
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
    expect(await freeAt(place.id, antigen, day, '08:00')).toBe(1);
    expect(await freeAt(place.id, pcr, day, '09:00')).toBe(1);
  });
});
