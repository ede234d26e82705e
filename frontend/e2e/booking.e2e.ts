import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { choosePlace, chooseSlot, fillPerson, freeSeats, freeSlotTomorrow, newPerson, shownFreeSeats, somePlace } from './steps';

const appUrl = inject('appUrl');
const apiUrl = inject('apiUrl');

describe('a person books, looks up, reschedules and cancels', () => {
  let browser: Browser;
  let code = '';
  const person = newPerson();

  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('books a slot and sees its free seats drop', async () => {
    const { page } = browser;
    const place = await somePlace(apiUrl);
    const slot = await freeSlotTomorrow(apiUrl, place.id);

    await page.goto(appUrl);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte miesto');
    await expect.poll(() => page.locator('.place').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'places');
    await screenshot(page, '01-places');

    await choosePlace(page, place);
    expect(await shownFreeSeats(page, slot.day, slot.time)).toBe(`voľné: ${slot.free}`);
    await expectAccessible(page, 'week');
    await screenshot(page, '02-week');

    await chooseSlot(page, slot.day, slot.time);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Vaše údaje');
    await page.getByLabel('Telefón').fill('12345');
    await page.getByLabel('Telefón').blur();
    await expect.poll(() => page.locator('.error').first().textContent()).toContain('Toto nie je telefónne číslo');
    await expectAccessible(page, 'form with an error');
    await fillPerson(page, person);
    await expect.poll(() => page.locator('.error').count()).toBe(0);
    await screenshot(page, '03-form');

    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
    code = (await page.getByTestId('code').textContent()) ?? '';
    expect(code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
    await expect.poll(() => page.getByRole('img', { name: `QR kód rezervácie ${code}` }).count()).toBe(1);
    await expectAccessible(page, 'confirmation');
    await screenshot(page, '04-confirmation');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Pridať do kalendára (.ics)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`slots-${code}.ics`);
    const ics = readFileSync((await file.path())!, 'utf8');
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain(`DESCRIPTION:Kód rezervácie: ${code}`);

    expect(await freeSeats(apiUrl, place.id, slot.day, slot.time)).toBe(slot.free - 1);
    await page.getByRole('button', { name: 'Nová rezervácia' }).click();
    await choosePlace(page, place);
    expect(await shownFreeSeats(page, slot.day, slot.time)).toBe(`voľné: ${slot.free - 1}`);

    // Personal data stays in memory: nothing of it in storage or the address bar.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + location.href);
    for (const value of Object.values(person)) expect(stored).not.toContain(value);
  });

  it('looks the reservation up by code and phone, and moves it to another time', async () => {
    const { page } = browser;
    const place = await somePlace(apiUrl);
    const target = await freeSlotTomorrow(apiUrl, place.id, 3);

    await page.goto(`${appUrl}/#/manage`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Moja rezervácia');
    await expectAccessible(page, 'manage');
    await page.getByLabel('Kód rezervácie').fill(code);
    await page.getByLabel('Telefón', { exact: true }).fill(person.phone);
    await page.getByRole('button', { name: 'Vyhľadať' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vaša rezervácia');
    await expectAccessible(page, 'reservation');
    await screenshot(page, '05-reservation');

    await page.getByRole('button', { name: 'Presunúť na iný termín' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Nový termín');
    await chooseSlot(page, target.day, target.time);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Rezervácia je presunutá.' }).count()).toBe(1);
    expect(await page.getByTestId('reservation-time').textContent()).toBe(target.time);
    expect(await freeSeats(apiUrl, place.id, target.day, target.time)).toBe(target.free - 1);
  });

  it('cancels the reservation by code and national id', async () => {
    const { page } = browser;
    await page.goto(`${appUrl}/#/manage`);
    await page.reload();
    await page.getByLabel('Kód rezervácie').fill(code);
    await page.getByLabel('rodného čísla').check();
    await page.getByLabel('Rodné číslo', { exact: true }).fill(person.nationalId);
    await page.getByRole('button', { name: 'Vyhľadať' }).click();
    await page.getByRole('button', { name: 'Zrušiť rezerváciu' }).click();
    await expectAccessible(page, 'cancel question');
    await page.getByRole('button', { name: 'Áno, zrušiť' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: `Rezervácia ${code} je zrušená.` }).count()).toBe(1);

    // Its owner learns that it was cancelled (410 reservation-cancelled); anyone else gets a 404.
    const lookup = await fetch(`${apiUrl}/api/reservations/${code}`, { headers: { 'Slots-Phone': person.phone } });
    expect(lookup.status).toBe(410);
    const stranger = await fetch(`${apiUrl}/api/reservations/${code}`, { headers: { 'Slots-Phone': newPerson().phone } });
    expect(stranger.status).toBe(404);

    // The page says so plainly and offers a new booking, in Slovak and English.
    await page.getByLabel('Kód rezervácie').fill(code);
    await page.getByLabel('Telefón', { exact: true }).fill(person.phone);
    await page.getByRole('button', { name: 'Vyhľadať' }).click();
    const told = page.getByRole('status').filter({ hasText: `Rezervácia ${code} bola zrušená, tento termín už nemáte.` });
    await expect.poll(() => told.count()).toBe(1);
    expect(await told.getByRole('link', { name: 'Rezervovať nový termín' }).getAttribute('href')).toBe('#/');
    await expectAccessible(page, 'cancelled reservation');
    await screenshot(page, '11-cancelled-lookup');
    await page.getByRole('button', { name: 'English' }).click();
    const toldEn = page.getByRole('status').filter({ hasText: `Reservation ${code} was cancelled; you no longer have this appointment.` });
    await expect.poll(() => toldEn.count()).toBe(1);
    await expectAccessible(page, 'cancelled reservation in English');
    await page.getByRole('button', { name: 'Slovensky' }).click();
    await told.getByRole('link', { name: 'Rezervovať nový termín' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte miesto');
  });

  it('offers the nearest free times when the chosen one fills up meanwhile', async () => {
    const { page } = browser;
    const place = await somePlace(apiUrl, 2);
    const slot = await freeSlotTomorrow(apiUrl, place.id, 5);
    await page.goto(appUrl);
    await choosePlace(page, place);
    await chooseSlot(page, slot.day, slot.time);
    await fillPerson(page, newPerson('Mária Neskorá'));

    for (let seat = 0; seat < slot.free; seat++) {
      const response = await fetch(`${apiUrl}/api/reservations`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify({ placeId: place.id, day: slot.day, time: slot.time, ...newPerson('Rýchlejší'), language: 'sk' }),
      });
      expect(response.status).toBe(201);
    }

    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    const offer = page.getByRole('alert').filter({ hasText: 'Tento termín sa medzitým obsadil.' });
    await expect.poll(() => offer.count()).toBe(1);
    await expect.poll(() => offer.getByRole('button').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'slot full');
    await screenshot(page, '10-slot-full');

    await offer.getByRole('button').first().click();
    await expect.poll(() => page.locator('.chosen').textContent()).not.toContain(`o ${slot.time}`);
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
  });

  it('switches to English and works on a phone-sized screen', async () => {
    const phone = await openBrowser({ width: 390, height: 844 });
    try {
      await phone.page.goto(appUrl);
      await phone.page.locator('h1').waitFor();
      // The language the page states when the English heading first appears, read in the same task.
      await phone.page.evaluate(() => {
        const seen = window as unknown as { langAtEnglishHeading?: string };
        const watch = new MutationObserver(() => {
          if (seen.langAtEnglishHeading === undefined && document.querySelector('h1')?.textContent === 'Choose a place') {
            seen.langAtEnglishHeading = document.documentElement.lang;
          }
        });
        watch.observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      await phone.page.getByRole('button', { name: 'English' }).click();
      await expect.poll(() => phone.page.locator('h1').textContent()).toBe('Choose a place');
      expect(await phone.page.evaluate(() => (window as unknown as { langAtEnglishHeading?: string }).langAtEnglishHeading)).toBe('en');
      expect(await phone.page.getAttribute('html', 'lang')).toBe('en');
      const place = await somePlace(apiUrl, 1);
      await phone.page.getByRole('button', { name: place.name }).click();
      await expect.poll(() => phone.page.locator('button.slot').count()).toBeGreaterThan(0);
      const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await expectAccessible(phone.page, 'week on a phone');
      await screenshot(phone.page, '06-week-phone-en');
    } finally {
      await phone.close();
    }
  });
});
