import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { choosePlace, chooseSlot, fillPerson, freeSeats, freeSlotTomorrow, newPerson, somePlace } from './steps';

const appUrl = inject('appUrl');
const apiUrl = inject('apiUrl');

describe('a person sees what is kept about them and erases it', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('books, sees the booking and its SMS under "Your data", erases them, and the booking is gone', async () => {
    const { page } = browser;
    const person = newPerson('Eva Vymazaná');
    const place = await somePlace(apiUrl, 1);
    const slot = await freeSlotTomorrow(apiUrl, place.id, 7);

    await page.goto(appUrl);
    await choosePlace(page, place);
    await chooseSlot(page, slot.day, slot.time);
    await fillPerson(page, person);
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
    const code = (await page.getByTestId('code').textContent()) ?? '';
    expect(await freeSeats(apiUrl, place.id, slot.day, slot.time)).toBe(slot.free - 1);

    await page.goto(`${appUrl}/#/manage`);
    await page.getByLabel('Kód rezervácie').fill(code);
    await page.getByLabel('Telefón', { exact: true }).fill(person.phone);
    await page.getByRole('button', { name: 'Vyhľadať' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vaša rezervácia');
    await page.getByRole('button', { name: 'Vaše údaje u nás' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vaše údaje u nás');
    const bookings = page.getByTestId('data-bookings');
    await expect.poll(() => bookings.textContent()).toContain(code);
    expect(await bookings.textContent()).toContain(person.name);
    expect(await bookings.textContent()).toContain('platná');
    await expect.poll(() => page.getByTestId('data-sms').textContent()).toContain(`Kod: ${code}`);
    await expectAccessible(page, 'your data');
    await screenshot(page, '20-your-data');

    await page.getByRole('button', { name: 'Vymazať moje údaje' }).click();
    const question = page.getByRole('group').filter({ hasText: `Rezervácia ${code}` });
    await expect.poll(() => question.textContent()).toContain('najprv zruší');
    await expectAccessible(page, 'erase question');
    await page.getByRole('button', { name: 'English' }).click();
    const questionEn = page.locator('.confirm-box');
    await expect.poll(() => questionEn.textContent()).toContain(`Booking ${code}`);
    expect(await questionEn.textContent()).toContain('is cancelled first');
    await expectAccessible(page, 'erase question in English');
    await page.getByRole('button', { name: 'Slovensky' }).click();
    await page.getByRole('button', { name: 'Áno, vymazať' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: `Vaše údaje sú vymazané. Kód ${code} už nič nenájde.` }).count()).toBe(1);
    await expectAccessible(page, 'erased');

    // The seat came back, and neither the booking nor the data can be found any more.
    expect(await freeSeats(apiUrl, place.id, slot.day, slot.time)).toBe(slot.free);
    const lookup = await fetch(`${apiUrl}/api/reservations/${code}`, { headers: { 'Slots-Phone': person.phone } });
    expect(lookup.status).toBe(404);
    const data = await fetch(`${apiUrl}/api/reservations/${code}/personal-data`, { headers: { 'Slots-National-Id': person.nationalId } });
    expect(data.status).toBe(404);
    await page.getByLabel('Kód rezervácie').fill(code);
    await page.getByLabel('Telefón', { exact: true }).fill(person.phone);
    await page.getByRole('button', { name: 'Vyhľadať' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
  });
  it('reaches the data of a cancelled booking from the look-up, and erases it with nothing to cancel', async () => {
    const { page } = browser;
    const person = newPerson('Ján Zrušený');
    const place = await somePlace(apiUrl, 1);
    const slot = await freeSlotTomorrow(apiUrl, place.id, 8);
    const booked = await fetch(`${apiUrl}/api/reservations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ placeId: place.id, day: slot.day, time: slot.time, ...person, language: 'sk' }),
    });
    expect(booked.status).toBe(201);
    const code = ((await booked.json()) as { code: string }).code;
    const cancelled = await fetch(`${apiUrl}/api/reservations/${code}`, { method: 'DELETE', headers: { 'Slots-Phone': person.phone } });
    expect(cancelled.status).toBe(204);

    await page.goto(`${appUrl}/#/manage`);
    await page.reload();
    await page.getByLabel('Kód rezervácie').fill(code);
    await page.getByLabel('Telefón', { exact: true }).fill(person.phone);
    await page.getByRole('button', { name: 'Vyhľadať' }).click();
    const told = page.getByRole('status').filter({ hasText: `Rezervácia ${code} bola zrušená` });
    await told.getByRole('button', { name: 'Vaše údaje u nás' }).click();
    await expect.poll(() => page.getByTestId('data-bookings').textContent()).toContain('zrušená');
    await expectAccessible(page, 'data of a cancelled booking');

    await page.getByRole('button', { name: 'Vymazať moje údaje' }).click();
    await expect.poll(() => page.locator('.confirm-box').textContent()).toContain('Naozaj vymazať?');
    expect(await page.locator('.confirm-box').textContent()).not.toContain('najprv zruší');
    await page.getByRole('button', { name: 'Áno, vymazať' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: `Vaše údaje sú vymazané. Kód ${code} už nič nenájde.` }).count()).toBe(1);
    const lookup = await fetch(`${apiUrl}/api/reservations/${code}`, { headers: { 'Slots-Phone': person.phone } });
    expect(lookup.status).toBe(404);
  });
});
