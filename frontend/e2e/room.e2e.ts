import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Place, RoomJoin, RoomStatus } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { chooseSlot, fillPerson, freeSeats, newPerson, shownFreeSeats } from './steps';

const appUrl = inject('appUrl');
const apiUrl = inject('apiUrl');
/** The product's HAProxy in front of the same API: the first person comes the way people do on the stack. */
const proxyUrl = inject('proxyUrl');
const proxySpki = inject('proxySpki');
const staff = { 'Content-Type': 'application/json', 'X-Api-Key': 'dev-admin-key-0000' };

async function post<T>(path: string, body: unknown, headers: Record<string, string> = staff): Promise<{ status: number; body: T }> {
  const response = await fetch(`${apiUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json().catch(() => null)) as T };
}

function tomorrow(): string {
  return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
}

/** A place of its own with one slot of two seats tomorrow at 10:00, and an opening (open already) over it. */
async function placeInAnOpening(): Promise<{ place: Place; openingId: number; day: string }> {
  const place = (await post<Place>('/api/admin/places', {
    name: `Čakáreň E2E ${Date.now() % 100_000}`, address: 'Testovacia 2, Košice', region: 'Košický kraj', timeZone: 'Europe/Bratislava', active: true,
  })).body;
  const day = tomorrow();
  const generated = await post('/api/admin/slots/generate', {
    placeIds: [place.id], from: day, to: day, capacity: 2, dryRun: false,
    template: { firstStart: '10:00', lastStart: '10:00', intervalMinutes: 15, lengthMinutes: 15 },
  });
  expect(generated.status).toBe(200);
  const opening = await post<{ id: number }>('/api/admin/openings', {
    placeIds: [place.id], opensAt: new Date(Date.now() - 1_000).toISOString(), admitPerSecond: 5, admissionSeconds: 300,
  });
  expect(opening.status).toBe(201);
  return { place, openingId: opening.body.id, day };
}

/** Someone else taking a seat through the room, as the API is used without the page. */
async function bookThroughTheRoom(openingId: number, placeId: number, day: string): Promise<{ code: string; phone: string }> {
  const person = newPerson('Iná Osoba');
  const joined = (await post<RoomJoin>(`/api/waiting-room/openings/${openingId}/join`, { nationalId: person.nationalId }, { 'Content-Type': 'application/json' })).body;
  await expect.poll(async () => {
    const response = await fetch(`${apiUrl}/api/waiting-room/status`, { headers: { 'Waiting-Room-Token': joined.token } });
    return ((await response.json()) as RoomStatus).state;
  }, { timeout: 20_000, interval: 500 }).toBe('admitted');
  const booked = await post<{ code: string }>('/api/reservations', { placeId, day, time: '10:00', ...person, language: 'sk' }, {
    'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID(), 'Waiting-Room-Token': joined.token,
  });
  expect(booked.status).toBe(201);
  return { code: booked.body.code, phone: person.phone };
}

async function choose(page: Browser['page'], place: Place): Promise<void> {
  // The part of the name after its first word: ASCII, so the search matches on every backend.
  await page.getByLabel('Hľadať podľa názvu').fill(place.name.split(' ').slice(1).join(' '));
  await page.getByRole('button', { name: 'Hľadať' }).click();
  await page.getByRole('button', { name: place.name }).click();
}

describe('the waiting room of an opening', () => {
  let first: Browser;
  let second: Browser;
  let scope: Awaited<ReturnType<typeof placeInAnOpening>>;

  beforeAll(async () => {
    scope = await placeInAnOpening();
    // The first page goes through HAProxy over HTTPS: its browser trusts the local certificate's key only.
    const trustProxy = [`--ignore-certificate-errors-spki-list=${proxySpki}`];
    [first, second] = await Promise.all([openBrowser(undefined, trustProxy), openBrowser()]);
  });
  afterAll(async () => {
    await Promise.allSettled([first?.close(), second?.close()]);
  });

  it('takes a person from the line to a booking made with the admitted token, through HAProxy', async () => {
    const { page } = first;
    const person = newPerson('Eva Čakajúca');
    const tokens: (string | null)[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/reservations')) tokens.push(r.headers()['waiting-room-token'] ?? null);
    });
    await page.goto(proxyUrl);
    await choose(page, scope.place);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Čakáreň');
    await expectAccessible(page, 'waiting room, join');
    await page.getByLabel('Rodné číslo').fill(person.nationalId);
    await page.getByRole('button', { name: 'Zaradiť sa do radu' }).click();

    // The turn comes (admission runs every second) and the booking takes over, with the deadline shown.
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 20_000 }).toBe('Vyberte termín');
    expect(await page.getByTestId('admission').textContent()).toMatch(/Ste na rade\. Rezervujte do \d{2}:\d{2}\./);
    await chooseSlot(page, scope.day, '10:00');
    await fillPerson(page, person);
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(await freeSeats(apiUrl, scope.place.id, scope.day, '10:00')).toBe(1);
  });

  it('tells the one still waiting "no seats left" once the last seat goes, and lets them in when a seat comes back', async () => {
    const { page } = second;
    // The last seat goes to someone else first.
    const taken = await bookThroughTheRoom(scope.openingId, scope.place.id, scope.day);
    expect(await freeSeats(apiUrl, scope.place.id, scope.day, '10:00')).toBe(0);

    await page.goto(appUrl);
    await choose(page, scope.place);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Čakáreň');
    const person = newPerson('Ján Neskorý');
    await page.getByLabel('Rodné číslo').fill(person.nationalId);
    await page.getByRole('button', { name: 'Zaradiť sa do radu' }).click();
    await expect.poll(() => page.getByTestId('room-no-seats').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('room-no-seats').textContent()).toContain('Všetky miesta v tomto otvorení sú teraz obsadené.');
    expect(await page.getByTestId('room-seats').textContent()).toBe('0');
    // Announced in words, not only shown in colour.
    expect(await page.getByTestId('room-announcement').textContent()).toContain('Všetky miesta v tomto otvorení sú teraz obsadené.');
    await expectAccessible(page, 'waiting room, no seats left');
    await screenshot(page, 'waiting-room-no-seats');

    // Closing the page keeps the place: back on the place, the room shows the status without a new join.
    await page.reload();
    await choose(page, scope.place);
    await expect.poll(() => page.getByTestId('room-no-seats').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('button', { name: 'Zaradiť sa do radu' }).count()).toBe(0);

    // The same screen in English.
    await page.getByRole('button', { name: 'English' }).click();
    expect(await page.getByTestId('room-no-seats').textContent()).toContain('Every seat in this opening is taken right now.');
    await page.getByRole('button', { name: 'Slovensky' }).click();

    // A cancellation gives a seat back: the room reopens and this person, next in line, is let in.
    const cancelled = await fetch(`${apiUrl}/api/reservations/${taken.code}`, { method: 'DELETE', headers: { 'Slots-Phone': taken.phone } });
    expect(cancelled.status).toBe(204);
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 20_000 }).toBe('Vyberte termín');
    expect(await page.getByTestId('admission').textContent()).toContain('Ste na rade.');
    expect(await shownFreeSeats(page, scope.day, '10:00')).toBe('voľné: 1');
  });
});
