import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Place, Reservation, WaitingListEntry } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { type RunningApi, startApi } from './stack';
import { fillPerson, newPerson } from './steps';

// A place's waiting list end to end: a place with one seat, booked; a second person joins its list in
// the browser; the first cancels; the offer shows up on the waiter's page within seconds and reaches
// them by SMS (the API's file sink), whose link claims the seat in a fresh browser.
const adminKey = { 'X-Api-Key': 'dev-admin-key-0000' };
const tokenHeader = 'Slots-Waiting-List-Token';
const zone = 'Europe/Bratislava';
inject('apiUrl'); // the shared stack has built the API this file starts again

/** The SMS the API's development sink wrote (one JSON line each), as { to, text }. */
function sentSms(path: string): { to: string; text: string }[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { to: string; text: string });
}

/** The place's day after today, on its own clock: a seat then is offered with the full hold. */
function tomorrowAtPlace(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

async function send<T>(url: string, init: RequestInit & { headers?: Record<string, string> }, status: number): Promise<T> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  expect(response.status, `${init.method ?? 'GET'} ${url}: ${text}`).toBe(status);
  return (text ? JSON.parse(text) : undefined) as T;
}

describe('the waiting list', () => {
  let api: RunningApi;
  let place: Place;
  const day = tomorrowAtPlace();
  const time = '10:00';
  const smsDir = mkdtempSync(join(tmpdir(), 'slots-e2e-sms-'));
  const smsFile = join(smsDir, 'sms.jsonl');
  const holder = newPerson('Adam Prvý');
  const waiter = newPerson('Beáta Čakajúca');
  let holderCode = '';
  let waiterToken = '';
  let browser: Browser;

  beforeAll(async () => {
    api = await startApi('waitlist', { Slots__Sms__File__Path: smsFile, Slots__WaitingList__Every: '00:00:01' });
    const json = { ...adminKey, 'Content-Type': 'application/json' };
    place = await send<Place>(`${api.url}/api/admin/places`, {
      method: 'POST', headers: json,
      body: JSON.stringify({ name: `Čakáreň Pracovisko${Date.now() % 100_000}`, address: 'Nám. SNP 1, Bratislava', region: 'Bratislavský kraj', timeZone: zone, active: true }),
    }, 201);
    const generated = await fetch(`${api.url}/api/admin/slots/generate`, {
      method: 'POST', headers: json,
      body: JSON.stringify({ placeIds: [place.id], from: day, to: day, template: { firstStart: time, lastStart: time, intervalMinutes: 60, lengthMinutes: 15 }, capacity: 1 }),
    });
    expect(generated.ok, await generated.text()).toBe(true);
    const availability = await send<{ days: { day: string; slots: { time: string; free: number }[] }[] }>(
      `${api.url}/api/places/${place.id}/availability?from=${day}&to=${day}`, {}, 200);
    expect(availability.days[0].slots).toEqual([expect.objectContaining({ time, free: 1 })]);
    const booking = await send<Reservation>(`${api.url}/api/reservations`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ placeId: place.id, day, time, ...holder, language: 'sk' }),
    }, 201);
    holderCode = booking.code;
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    rmSync(smsDir, { recursive: true, force: true });
  });

  it('lets a person join a full place\'s waiting list from its week', async () => {
    const { page } = browser;
    await page.goto(`${api.url}/#/place/${place.id}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte termín');
    await expect.poll(() => page.getByText('V zobrazených dňoch tu nie je voľné miesto.', { exact: false }).count()).toBe(1);
    await page.getByRole('button', { name: 'Zapísať sa na čakaciu listinu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Čakacia listina');
    expect(await page.getByLabel('Od dňa').inputValue()).toBeTruthy();
    expect(await page.getByLabel('Do dňa').inputValue() >= day).toBe(true);

    // The form names what is missing before anything is sent.
    await page.getByRole('button', { name: 'Zapísať sa', exact: true }).click();
    await expect.poll(() => page.locator('.error').count()).toBe(3);
    await expectAccessible(page, 'waiting list join with errors');

    await fillPerson(page, waiter);
    await expectAccessible(page, 'waiting list join');
    await screenshot(page, 'waiting-list-join');
    await page.getByRole('button', { name: 'Zapísať sa', exact: true }).click();

    await page.waitForURL((url) => /#\/waitlist\/[0-9a-f]{32}$/.test(url.hash));
    waiterToken = /#\/waitlist\/([0-9a-f]{32})$/.exec(page.url())![1];
    await expect.poll(() => page.getByTestId('wl-state').getAttribute('data-state')).toBe('waiting');
    expect(await page.getByTestId('wl-position').textContent()).toBe('1');
    expect(await page.getByTestId('wl-state-text').textContent()).toBe('Čakáte v poradí, ste 1. v rade.');
    expect(await page.evaluate((id) => localStorage.getItem(`slots.waitlist.${id}`), place.id)).toBe(waiterToken);
    await expectAccessible(page, 'waiting list entry');
  });

  it('offers the freed seat with a countdown, by SMS too, and books it from the SMS\'s link', async () => {
    const { page } = browser;
    // Another person waits behind: the offer goes to the first in line only.
    const second = await send<WaitingListEntry>(`${api.url}/api/waiting-list`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ placeId: place.id, from: day, to: day, ...newPerson('Cyril Druhý'), language: 'en' }),
    }, 201);
    expect(second.position).toBe(2);

    await send(`${api.url}/api/reservations/${holderCode}`, { method: 'DELETE', headers: { 'Slots-Phone': holder.phone } }, 204);

    // The page asks every 10 s while waiting; the job offers within a second.
    await expect.poll(() => page.getByTestId('wl-state').getAttribute('data-state'), { timeout: 20_000 }).toBe('offered');
    const offer = page.getByTestId('wl-offer');
    expect(await page.getByTestId('wl-state-text').textContent()).toContain(`o ${time}`);
    expect(await offer.getByTestId('wl-countdown').textContent()).toMatch(/^1[45]:\d\d$/);
    const first = await offer.getByTestId('wl-countdown').textContent();
    await expect.poll(() => offer.getByTestId('wl-countdown').textContent(), { timeout: 5_000 }).not.toBe(first);
    expect(await offer.getByRole('button', { name: 'Rezervovať toto miesto' }).isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Odhlásiť sa z čakacej listiny' }).count()).toBe(1);
    await expectAccessible(page, 'waiting list offer');
    await screenshot(page, 'waiting-list-offer');

    // The offer SMS links to the entry by its token, in the fragment.
    let link = '';
    await expect.poll(() => {
      link = sentSms(smsFile).map((s) => /#\/waitlist\/[0-9a-f]{32}/.exec(s.text)?.[0] ?? '').find(Boolean) ?? '';
      return link;
    }, { timeout: 15_000 }).not.toBe('');
    expect(link).toBe(`#/waitlist/${waiterToken}`);
    const offerSms = sentSms(smsFile).find((s) => s.text.includes(link))!;
    expect(offerSms.to.replace(/\D/g, '').endsWith(waiter.phone.replace(/\D/g, '').slice(1))).toBe(true);

    const phone = await openBrowser({ width: 390, height: 844 });
    try {
      await phone.page.goto(`${api.url}/${link}`);
      await expect.poll(() => phone.page.getByTestId('wl-state').getAttribute('data-state')).toBe('offered');
      await phone.page.getByRole('button', { name: 'Rezervovať toto miesto' }).click();
      await expect.poll(() => phone.page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
      const code = (await phone.page.getByTestId('code').textContent()) ?? '';
      expect(code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
      await expectAccessible(phone.page, 'waiting list claimed');

      const entry = await send<WaitingListEntry>(`${api.url}/api/waiting-list/entry`, { headers: { [tokenHeader]: waiterToken } }, 200);
      expect(entry).toMatchObject({ state: 'booked', bookedCode: code, position: 0 });
      // The first page learns it within its quick polls, and says so in words.
      await expect.poll(() => page.getByTestId('wl-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('booked');
      expect(await page.getByTestId('wl-state-text').textContent()).toBe('Uvoľnené miesto ste si rezervovali.');
      expect(await page.getByText(`Kód rezervácie: ${code}`).count()).toBe(1);
    } finally {
      await phone.close();
    }

    // The one behind leaves (in English): their entry says so, and the API agrees.
    const leaver = await openBrowser();
    try {
      const { page: other } = leaver;
      await other.goto(`${api.url}/#/waitlist/${second.token}`);
      await other.getByRole('button', { name: 'English' }).click();
      await expect.poll(() => other.getByTestId('wl-state').getAttribute('data-state')).toBe('waiting');
      expect(await other.getByTestId('wl-position').textContent()).toBe('1');
      await other.getByRole('button', { name: 'Leave the waiting list' }).click();
      await expect.poll(() => other.getByTestId('wl-state').getAttribute('data-state')).toBe('left');
      expect(await other.getByTestId('wl-state-text').textContent()).toBe('You left the waiting list.');
      expect(await other.getByRole('button', { name: 'Leave the waiting list' }).count()).toBe(0);
      await expectAccessible(other, 'waiting list left');
      const left = await send<WaitingListEntry>(`${api.url}/api/waiting-list/entry`, { headers: { [tokenHeader]: second.token! } }, 200);
      expect(left.state).toBe('left');
    } finally {
      await leaver.close();
    }
  });
});
