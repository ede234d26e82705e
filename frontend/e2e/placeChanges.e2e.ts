import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Availability, Place } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { type RunningApi, startApiWithProvider } from './stack';
import { freeSeats, getJson, newPerson, signInThroughProvider } from './steps';

// An admin changes a published place through the served page, signed in through the test OpenID
// provider as admin.e2e.ts is: edits its opening hours, closes it keeping the bookings, and reopens it.
// What the page says is checked against the API's own answers.
inject('apiUrl'); // the shared stack has built the API this file starts again

const adminKey = { 'X-Api-Key': 'dev-admin-key-0000' }; // appsettings.Development.json: the setup's place and slots only

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { ...adminKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as T;
}

const bookable = async (apiUrl: string, id: number, from: string, to: string) =>
  (await getJson<Availability>(`${apiUrl}/api/places/${id}/availability?from=${from}&to=${to}`)).days.flatMap((d) => d.slots).filter((s) => s.free > 0).length;

describe('an admin changes a place', () => {
  const stopping: { stop: () => Promise<void> | void }[] = [];
  let api: RunningApi;
  let issuer: string;
  let browser: Browser;
  let place: Place;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    const stack = await startApiWithProvider('places', [{ sub: 'admin-1', roles: ['admin'] }]);
    stopping.push(stack);
    ({ api, issuer } = stack);
    place = await postJson<Place>(`${api.url}/api/admin/places`,
      { name: 'Odberné miesto Zmena', address: 'Testovacia 2, Bratislava', region: 'Bratislavský kraj', timeZone: 'Europe/Bratislava' });
    await postJson(`${api.url}/api/admin/slots/generate`, {
      placeIds: [place.id], from: day(2), to: day(3), capacity: 2,
      template: { firstStart: '08:00', lastStart: '09:00', intervalMinutes: 30, lengthMinutes: 30 },
    });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const s of stopping.reverse()) await s.stop();
  });

  const card = (page: Page) => page.locator('section.card', { has: page.getByRole('heading', { name: 'Zmeny miesta' }) });

  it('edits the opening hours, which the place page then shows', async () => {
    const { page } = browser;
    await page.goto(`${api.url}/#/admin`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Správa');
    await signInThroughProvider(page, api.url, issuer, 'admin-1');
    await expect.poll(() => page.url()).toBe(`${api.url}/#/admin`);
    const changes = card(page);
    await changes.getByLabel('Číslo miesta').fill(String(place.id));
    await changes.getByRole('button', { name: 'Načítať' }).click();
    await expect.poll(() => changes.getByLabel('Názov').inputValue()).toBe('Odberné miesto Zmena');
    await changes.getByLabel('Otváracie hodiny').fill('Po-Pi 8:00-16:00');
    await changes.getByRole('button', { name: 'Uložiť zmeny' }).click();
    await expect.poll(() => changes.getByRole('status').textContent()).toBe('Miesto Odberné miesto Zmena uložené.');
    expect((await getJson<Place>(`${api.url}/api/places/${place.id}`)).openingHours).toBe('Po-Pi 8:00-16:00');
    await expectAccessible(page, 'admin place changes');
    await screenshot(page, '12-admin-place-changes');

    await page.goto(`${api.url}/#/place/${place.id}`);
    await expect.poll(() => page.locator('.opening-hours').textContent()).toBe('Otváracie hodiny: Po-Pi 8:00-16:00');
  });

  it('closes the place keeping its bookings: nothing is bookable, the page says so; a reopen books again', async () => {
    const { page } = browser;
    expect(await bookable(api.url, place.id, day(2), day(3))).toBeGreaterThan(0);
    await page.goto(`${api.url}/#/admin`);
    const changes = card(page);
    await changes.getByLabel('Číslo miesta').fill(String(place.id));
    await changes.getByRole('button', { name: 'Načítať' }).click();
    await expect.poll(() => changes.getByText('Miesto prijíma rezervácie.').count()).toBe(1);
    await changes.getByLabel('Dôvod zatvorenia').fill('Rekonštrukcia');
    expect(await changes.getByLabel('Ponechať existujúce rezervácie').isChecked()).toBe(true);
    await changes.getByRole('button', { name: 'Zatvoriť miesto' }).click();
    await expect.poll(() => changes.getByRole('status').textContent()).toBe('Zatvorené – dni: 2, zrušené: 0, ponechané: 0.');
    expect((await getJson<Place>(`${api.url}/api/places/${place.id}`)).closed).toBe(true);
    expect(await bookable(api.url, place.id, day(2), day(3))).toBe(0);
    await expectAccessible(page, 'admin place closed');

    await page.goto(`${api.url}/#/place/${place.id}`);
    await expect.poll(() => page.getByText('Miesto je zatvorené pre nové rezervácie.').count()).toBe(1);
    await expectAccessible(page, 'closed place page');

    await page.goto(`${api.url}/#/admin`);
    await changes.getByLabel('Číslo miesta').fill(String(place.id));
    await changes.getByRole('button', { name: 'Načítať' }).click();
    await changes.getByRole('button', { name: 'Znovu otvoriť' }).click();
    await expect.poll(() => changes.getByRole('status').textContent()).toBe('Znovu otvorené – dni: 2.');
    expect((await getJson<Place>(`${api.url}/api/places/${place.id}`)).closed).toBe(false);
    expect(await bookable(api.url, place.id, day(2), day(3))).toBe(6);
  });
  it('adds seats to a slot and refuses a cut below its bookings, naming them', async () => {
    const { page } = browser;
    const booked: string[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${api.url}/api/reservations`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify({ placeId: place.id, day: day(3), time: '08:30', ...newPerson() }),
      });
      expect(answer.status).toBe(201);
      booked.push(((await answer.json()) as { code: string }).code);
    }
    await page.goto(`${api.url}/#/admin`);
    const seats = page.locator('section.card', { has: page.getByRole('heading', { name: 'Kapacita termínov' }) });
    await seats.getByLabel('Číslo miesta').fill(String(place.id));
    await seats.getByLabel('Od', { exact: true }).fill(day(2));
    await seats.getByLabel('Do', { exact: true }).fill(day(2));
    await seats.getByLabel('Len termíny so začiatkom').fill('08:00');
    await seats.getByLabel('Miest v termíne').fill('5');
    await seats.getByRole('button', { name: 'Nastaviť kapacitu' }).click();
    await expect.poll(() => seats.getByRole('status').textContent())
      .toBe('Zmenené termíny: 1, pridané miesta: 3 (z toho pre poradovník: 0), odobraté miesta: 0.');
    expect(await freeSeats(api.url, place.id, day(2), '08:00')).toBe(5);
    await expectAccessible(page, 'admin capacity');
    await screenshot(page, '14-admin-capacity');

    // Every slot of the day after down to one seat: 08:30 holds two bookings, so nothing changes.
    await seats.getByLabel('Od', { exact: true }).fill(day(3));
    await seats.getByLabel('Do', { exact: true }).fill(day(3));
    await seats.getByLabel('Len termíny so začiatkom').fill('');
    await seats.getByLabel('Miest v termíne').fill('1');
    await seats.getByRole('button', { name: 'Nastaviť kapacitu' }).click();
    await expect.poll(() => seats.getByRole('alert').textContent()).toContain('Nič sa nezmenilo');
    const named = await seats.locator('.capacity-blocked li').allTextContents();
    expect([...named].sort()).toEqual(booked.map((code) => `${code} ${day(3)} 08:30`).sort());
    expect(await freeSeats(api.url, place.id, day(3), '08:00')).toBe(2);
    await expectAccessible(page, 'admin capacity refused');
  });
});
