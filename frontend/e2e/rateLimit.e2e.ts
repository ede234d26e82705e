import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { choosePlace, chooseSlot, fillPerson, freeSeats, freeSlotTomorrow, newPerson, somePlace } from './steps';

const appUrl = inject('limitedAppUrl');
const apiUrl = inject('limitedApiUrl');

describe('under load (the API allows one booking per 5 s)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('counts down from Retry-After, then books with the same Idempotency-Key', async () => {
    const { page } = browser;
    const place = await somePlace(apiUrl);
    const slot = await freeSlotTomorrow(apiUrl, place.id);
    const posts: { key: string | null; language: string }[] = [];
    const statuses: number[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/reservations')) {
        posts.push({ key: r.headers()['idempotency-key'] ?? null, language: JSON.parse(r.postData() ?? '{}').language });
      }
    });
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && r.url().endsWith('/api/reservations')) statuses.push(r.status());
    });

    await page.goto(appUrl);
    await choosePlace(page, place);
    await chooseSlot(page, slot.day, slot.time);
    await fillPerson(page, newPerson('Peter Čakajúci'));

    // Someone else takes this window's only write.
    const other = newPerson('Iná Osoba');
    const first = await fetch(`${apiUrl}/api/reservations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ placeId: place.id, day: slot.day, time: slot.time, ...other, language: 'sk' }),
    });
    expect(first.status).toBe(201);

    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 5_000 }).toBe('Čakáme v poradí');
    expect(await page.getByTestId('countdown').textContent()).toMatch(/^Ďalší pokus o [1-9]\d* s$/);
    await expectAccessible(page, 'waiting');
    await screenshot(page, '07-waiting');

    await expect.poll(() => page.locator('h1').textContent(), { timeout: 20_000 }).toBe('Rezervácia je potvrdená');
    expect(statuses[0]).toBe(429);
    expect(statuses.at(-1)).toBe(201);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(posts.map((p) => p.key)).size).toBe(1);
    expect(posts[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[0].language).toBe('sk');
    expect(await freeSeats(apiUrl, place.id, slot.day, slot.time)).toBe(slot.free - 2);
  });
});
