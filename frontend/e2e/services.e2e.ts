import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Availability, Place, Reservation } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { chooseSlot, fillPerson, getJson, newPerson, pickFromList } from './steps';

// A place with two services (an antigen and a PCR test) through the served page: the person chooses the
// service before the week, sees that service's seats only, and books it; a finder's deep link that names a
// service opens that service's week with the time picked. What the page says is checked against the API.
// A place picked from the search list comes without its services (GET /api/places leaves them out): the
// page reads the place whole before it asks for the service.
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
  const nextDay = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const pcrPerson = newPerson('Peter Testovací');
  let pcrCode = '';

  beforeAll(async () => {
    place = await send<Place>('POST', `${apiUrl}/api/admin/places`,
      { name: 'Odberné miesto Služby', address: 'Testovacia 3, Bratislava', region: 'Bratislavský kraj', timeZone: 'Europe/Bratislava' });
    for (const [code, nameSk, nameEn, first] of [[antigen, 'Antigénový test', 'Antigen test', '08:00'], [pcr, 'PCR test', 'PCR test', '09:00']]) {
      await send('POST', `${apiUrl}/api/admin/services`, { code, nameSk, nameEn });
      await send('PUT', `${apiUrl}/api/admin/places/${place.id}/services/${code}`, {
        seats: 2, template: { firstStart: first, lastStart: first, intervalMinutes: 15, lengthMinutes: 15 },
      });
      // PCR also the day after: a PCR booking moves there.
      await send('POST', `${apiUrl}/api/admin/slots/generate`, { placeIds: [place.id], from: day, to: code === pcr ? nextDay : day, service: code });
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
    await fillPerson(page, pcrPerson);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/reservations') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    const booked = (await (await answered).json()) as Reservation & { service?: string };
    expect(booked.service).toBe(pcr);
    pcrCode = booked.code;
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

  it('names the service on the booking\'s page and moves the booking to another time of that service', async () => {
    const { page } = browser;
    await page.goto(`${appUrl}/#/manage`);
    await page.getByLabel('Kód rezervácie').fill(pcrCode);
    await page.getByLabel('Telefón', { exact: true }).fill(pcrPerson.phone);
    await page.getByRole('button', { name: 'Vyhľadať' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vaša rezervácia');
    await expect.poll(() => page.getByTestId('reservation-service').textContent()).toBe('PCR test');
    await expectAccessible(page, 'reservation with its service');
    await screenshot(page, 'reservation-service');

    // The week to move to is PCR's: without the service the place's availability is refused (it offers two).
    await page.getByRole('button', { name: 'Presunúť na iný termín' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Nový termín');
    await chooseSlot(page, nextDay, '09:00');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Rezervácia je presunutá.' }).count()).toBe(1);
    expect(await freeAt(place.id, pcr, day, '09:00')).toBe(2);
    expect(await freeAt(place.id, pcr, nextDay, '09:00')).toBe(1);
    expect(await page.getByTestId('reservation-service').textContent()).toBe('PCR test');
  });

  it('joins the waiting list of the service whose seats are gone, naming it', async () => {
    const { page } = browser;
    // The last antigen seat goes through the API: the antigen week is full, PCR's is not.
    const last = await fetch(`${apiUrl}/api/reservations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ placeId: place.id, day, time: '08:00', ...newPerson(), service: antigen }),
    });
    expect(last.status).toBe(201);
    expect(await freeAt(place.id, antigen, day, '08:00')).toBe(0);

    await page.goto(`${appUrl}/#/place/${place.id}`);
    await page.getByRole('button', { name: /Antigénový test/ }).click();
    await page.getByRole('button', { name: 'Zapísať sa na čakaciu listinu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Čakacia listina');
    expect(await page.locator('.chosen-service strong').textContent()).toBe('Antigénový test');
    await fillPerson(page, newPerson());
    const joined = page.waitForResponse((r) => r.url().endsWith('/api/waiting-list') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Zapísať sa', exact: true }).click();
    const answer = await joined;
    expect(answer.status()).toBe(201);
    expect((answer.request().postDataJSON() as { service?: string }).service).toBe(antigen);
    await page.waitForURL((url) => /#\/waitlist\/[0-9a-f]{32}$/.test(url.hash));
  });

  // Regression: picked from the list, the place skipped the service step and its booking got 400 naming service.
  it('asks which service at a place picked from the search list, and books it', async () => {
    const { page } = browser;
    await pickFromList(page, appUrl, 'Služby', place.name);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte službu');
    await expectAccessible(page, 'service step from the list');
    await page.getByRole('button', { name: /PCR test/ }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte termín');
    expect(await page.locator('.chosen-service strong').textContent()).toBe('PCR test');
    await chooseSlot(page, day, '09:00');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vaše údaje');
    await fillPerson(page, newPerson());
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/reservations') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    const answer = await answered;
    expect(answer.status()).toBe(201);
    expect(((await answer.json()) as { service?: string }).service).toBe(pcr);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
    expect(await page.locator('.details').textContent()).toContain('PCR test');
    expect(await freeAt(place.id, pcr, day, '09:00')).toBe(1);
  });

  it('says so with a retry when the place picked from the list fails to load, and goes on after the retry', async () => {
    const { page } = browser;
    await page.route(`${apiUrl}/api/places/${place.id}`, (route) => route.abort(), { times: 1 });
    await pickFromList(page, appUrl, 'Služby', place.name);
    await expect.poll(() => page.getByRole('button', { name: 'Skúsiť znova' }).count()).toBe(1);
    expect(await page.locator('h1').textContent()).toBe(place.name);
    expect(await page.locator('.notice-error').textContent()).toContain('Údaje sa nepodarilo načítať.');
    await expectAccessible(page, 'place load failed');
    await page.getByRole('button', { name: 'Skúsiť znova' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte službu');
  });
});
