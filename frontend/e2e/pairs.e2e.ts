import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Availability, Place, Reservation } from '../src/api/types';
import { addDays, formatDay } from '../src/booking/dates';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { chooseSlot, fillPerson, getJson, newPerson } from './steps';

// A two-dose service (issue 41 item 3) through the served pages: the booking page says the second
// appointment comes with the first and books both in one request (the earliest free day of the
// interval, or a day the person chose), the confirmation shows both, a booking whose interval has no
// seat at its time books nothing; the manage page shows the pair, moves its second dose within the
// interval and cancels both. Every seat count is read back from the API. The days all lie inside the
// hot window (before today+28), so a move never crosses it.
const appUrl = inject('appUrl');
const apiUrl = inject('apiUrl');
const adminKey = { 'X-Api-Key': 'dev-admin-key-0000' }; // appsettings.Development.json

async function send<T>(method: string, url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method, headers: { ...adminKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

describe('both doses in one booking', () => {
  let browser: Browser;
  let place: Place;
  const vaccine = `vaccine-${Date.now().toString(36)}`;
  const interval = { minDays: 7, maxDays: 14 };
  // The first dose two days ahead; its interval's days follow from it.
  const first = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const earliest = addDays(first, interval.minDays);
  const person = newPerson('Jana Dvojdávková');
  let code = '';

  // Availability is published from a snapshot up to a second old: a count after a booking is polled, not read once.
  const freeAt = async (day: string, time: string) =>
    (await getJson<Availability>(`${apiUrl}/api/places/${place.id}/availability?from=${day}&to=${day}&service=${vaccine}`))
      .days[0]?.slots.find((s) => s.time === time)?.free;
  const heading = (page: Page) => page.locator('h1').textContent();
  const reserved = (page: Page) => page.waitForResponse((r) => r.url().endsWith('/api/reservations') && r.request().method() === 'POST');

  beforeAll(async () => {
    place = await send<Place>('POST', `${apiUrl}/api/admin/places`,
      { name: 'Očkovacie centrum Dávky', address: 'Testovacia 7, Bratislava', region: 'Bratislavský kraj', timeZone: 'Europe/Bratislava' });
    await send('POST', `${apiUrl}/api/admin/services`, { code: vaccine, nameSk: 'Očkovanie (2 dávky)', nameEn: 'Vaccination (2 doses)', secondDose: interval });
    await send('PUT', `${apiUrl}/api/admin/places/${place.id}/services/${vaccine}`, {
      seats: 2, template: { firstStart: '08:00', lastStart: '08:30', intervalMinutes: 30, lengthMinutes: 15 },
    });
    // The place offers the vaccine only, so the page books it without a service step.
    await send('PUT', `${apiUrl}/api/admin/places/${place.id}/services/default`, { active: false });
    // The first dose's day and the whole interval, 08:00 and 08:30; on the first day also 09:00, which no day of the interval has.
    await send('POST', `${apiUrl}/api/admin/slots/generate`,
      { placeIds: [place.id], from: first, to: addDays(first, interval.maxDays), service: vaccine, dryRun: false });
    await send('POST', `${apiUrl}/api/admin/slots/generate`, {
      placeIds: [place.id], from: first, to: first, service: vaccine, dryRun: false, capacity: 2,
      template: { firstStart: '09:00', lastStart: '09:00', intervalMinutes: 30, lengthMinutes: 15 },
    });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const openSlot = async (page: Page, time: string) => {
    await page.goto('about:blank');
    await page.goto(`${appUrl}/#/place/${place.id}`);
    await expect.poll(() => heading(page)).toBe('Vyberte termín');
    await chooseSlot(page, first, time);
    await expect.poll(() => heading(page)).toBe('Vaše údaje');
  };

  it('says the second dose comes with the first, books both, and shows both on the confirmation', async () => {
    const { page } = browser;
    await openSlot(page, '08:00');
    await expect.poll(() => page.getByTestId('pair-lead').textContent()).toContain('7 – 14 dní po prvom');
    expect(await page.getByTestId('pair-lead').textContent())
      .toContain(`(${formatDay(earliest, 'sk')} – ${formatDay(addDays(first, interval.maxDays), 'sk')})`);
    await expectAccessible(page, 'a two-dose service\'s form');
    await fillPerson(page, person);
    const answered = reserved(page);
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    const answer = await answered;
    expect(answer.status()).toBe(201);
    // No day chosen: the API takes the earliest free one, at the first dose's time.
    expect(answer.request().postDataJSON()).not.toHaveProperty('secondDay');
    const booked = (await answer.json()) as Reservation;
    expect(booked.secondDose).toEqual({ day: earliest, time: '08:00', minutes: 15 });
    code = booked.code;

    await expect.poll(() => heading(page)).toBe('Rezervácia je potvrdená');
    expect(await page.getByTestId('pair-booked').textContent()).toContain('Zarezervovali sme oba termíny.');
    expect(await page.getByTestId('first-dose').textContent()).toBe(`${formatDay(first, 'sk', true)} o 08:00`);
    expect(await page.getByTestId('second-dose').textContent()).toBe(`${formatDay(earliest, 'sk', true)} o 08:00`);
    await expectAccessible(page, 'a pair\'s confirmation');
    await screenshot(page, '20-pair-booked');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Pridať do kalendára (.ics)' }).click();
    const ics = readFileSync((await (await download).path())!, 'utf8');
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(ics).toContain(`UID:${code}-2@slots`);

    await expect.poll(() => freeAt(first, '08:00')).toBe(1);
    await expect.poll(() => freeAt(earliest, '08:00')).toBe(1);
  });

  it('books the second dose on the day the person chose, at the first dose\'s time, in English too', async () => {
    const { page } = browser;
    const chosen = addDays(first, 10);
    await openSlot(page, '08:30');
    await fillPerson(page, newPerson('John Twodoses'));
    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.getByTestId('pair-lead').textContent()).toContain('7–14 days after the first');
    const day = page.getByLabel('Day of the second dose (optional)');
    expect(await day.getAttribute('min')).toBe(earliest);
    expect(await day.getAttribute('max')).toBe(addDays(first, interval.maxDays));

    // A day past the interval is told at the field, and nothing is sent.
    await day.fill(addDays(first, 20));
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await expect.poll(() => page.locator('.field-invalid .error').textContent())
      .toBe(`Choose a day from ${formatDay(earliest, 'en')} to ${formatDay(addDays(first, interval.maxDays), 'en')}, or leave it empty.`);
    await expectAccessible(page, 'a second-dose day outside the interval');

    await day.fill(chosen);
    const answered = reserved(page);
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    const answer = await answered;
    expect(answer.status()).toBe(201);
    expect(answer.request().postDataJSON()).toMatchObject({ time: '08:30', secondDay: chosen, secondTime: '08:30' });
    await expect.poll(() => heading(page)).toBe('Your booking is confirmed');
    expect(await page.getByTestId('second-dose').textContent()).toBe(`${formatDay(chosen, 'en', true)} at 08:30`);
    await expectAccessible(page, 'a pair\'s confirmation in English');
    await expect.poll(() => freeAt(chosen, '08:30')).toBe(1);
    await page.getByRole('button', { name: 'Slovensky' }).click();
  });

  it('books nothing when no second seat is free in the interval, and says to choose another first-dose time', async () => {
    const { page } = browser;
    await openSlot(page, '09:00');
    await fillPerson(page, newPerson('Mária Bezdruhá'));
    const answered = reserved(page);
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    const answer = await answered;
    expect(answer.status()).toBe(409);
    expect(((await answer.json()) as { code: string }).code).toBe('second-dose-full');
    await expect.poll(() => page.getByRole('alert').textContent())
      .toBe('Na druhú dávku nie je v jej intervale voľné miesto, preto sme nezarezervovali nič. Vyberte iný termín prvej dávky alebo iné miesto.');
    expect(await heading(page)).toBe('Vaše údaje');
    await expectAccessible(page, 'second-dose-full');
    await expect.poll(() => freeAt(first, '09:00')).toBe(2);
  });

  it('shows the pair on the manage page, and moves its second dose within the interval', async () => {
    const { page } = browser;
    const moved = addDays(first, 9);
    await page.goto(`${appUrl}/#/manage`);
    await page.getByLabel('Kód rezervácie').fill(code);
    await page.getByLabel('Telefón', { exact: true }).fill(person.phone);
    await page.getByRole('button', { name: 'Vyhľadať' }).click();
    await expect.poll(() => heading(page)).toBe('Vaša rezervácia');
    expect(await page.getByTestId('first-dose').textContent()).toBe(`${formatDay(first, 'sk', true)} o 08:00`);
    expect(await page.getByTestId('second-dose').textContent()).toBe(`${formatDay(earliest, 'sk', true)} o 08:00`);
    expect(await page.getByTestId('pair-note').textContent()).toContain('kód platí pre oba termíny');
    // The first dose cannot move: only the second's move is offered.
    expect(await page.getByRole('button', { name: 'Presunúť na iný termín' }).count()).toBe(0);
    await expectAccessible(page, 'a pair on the manage page');

    await page.getByRole('button', { name: 'Presunúť druhú dávku' }).click();
    await expect.poll(() => heading(page)).toBe('Nový termín druhej dávky');
    // The interval's days only, the current one shown first.
    await expect.poll(() => page.locator('button.day').evaluateAll((b) => b.map((e) => e.getAttribute('data-day'))))
      .toEqual(Array.from({ length: interval.maxDays - interval.minDays + 1 }, (_, i) => addDays(earliest, i)));
    expect(await page.locator(`button.day[data-day="${earliest}"]`).getAttribute('aria-pressed')).toBe('true');
    await expectAccessible(page, 'the second dose\'s move');
    const answered = page.waitForResponse((r) => r.url().endsWith(`/api/reservations/${code}/reschedule`));
    await chooseSlot(page, moved, '08:30');
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({ placeId: place.id, day: moved, time: '08:30', dose: 2 });
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Druhá dávka je presunutá.' }).count()).toBe(1);
    expect(await page.getByTestId('second-dose').textContent()).toBe(`${formatDay(moved, 'sk', true)} o 08:30`);
    expect(await page.getByTestId('first-dose').textContent()).toBe(`${formatDay(first, 'sk', true)} o 08:00`);

    const found = await getJson<Reservation>(`${apiUrl}/api/reservations/${code}`, { 'Slots-Phone': person.phone });
    expect(found.secondDose).toMatchObject({ day: moved, time: '08:30' });
    await expect.poll(() => freeAt(earliest, '08:00')).toBe(2);
    await expect.poll(() => freeAt(moved, '08:30')).toBe(1);
  });

  it('cancels both doses at once, and both seats come back', async () => {
    const { page } = browser;
    const moved = addDays(first, 9);
    await page.getByRole('button', { name: 'Zrušiť oba termíny' }).click();
    expect(await page.locator('#cancel-question').textContent()).toBe('Naozaj zrušiť obe dávky? Oba termíny sa uvoľnia pre ostatných.');
    await expectAccessible(page, 'the pair\'s cancel question');
    await page.getByRole('button', { name: 'Áno, zrušiť' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: `Rezervácia ${code} je zrušená, aj s druhou dávkou.` }).count()).toBe(1);
    await expect.poll(() => freeAt(first, '08:00')).toBe(2);
    await expect.poll(() => freeAt(moved, '08:30')).toBe(2);
    const lookup = await fetch(`${apiUrl}/api/reservations/${code}`, { headers: { 'Slots-Phone': person.phone } });
    expect(lookup.status).toBe(410);
  });
});
