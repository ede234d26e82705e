import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Availability, Page as ResultPage, Person, Place } from '../src/api/types';

// Booking steps as a person does them, with the facts to check them read from the API directly.

export async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as T;
}

/**
 * One of the places the demo data seeded at the start, by id: other test files create places on the same API
 * while this one runs (some offering several services, some with two slots a day), and the list's order
 * (region, then name) would slot them in between.
 */
export async function somePlace(apiUrl: string, index = 0): Promise<Place> {
  const places = (await getJson<ResultPage<Place>>(`${apiUrl}/api/places?pageSize=100`)).items;
  return [...places].sort((a, b) => a.id - b.id)[index];
}

/** Tomorrow's first slot with a free seat: today's may start while the test runs. */
export async function freeSlotTomorrow(apiUrl: string, placeId: number, skip = 0): Promise<{ day: string; time: string; free: number }> {
  const availability = await getJson<Availability>(`${apiUrl}/api/places/${placeId}/availability`);
  const day = availability.days.find((d) => d.day > availability.from) ?? availability.days[0];
  const slot = day.slots.filter((s) => s.free > 0)[skip];
  return { day: day.day, time: slot.time, free: slot.free };
}

export async function freeSeats(apiUrl: string, placeId: number, day: string, time: string): Promise<number> {
  const availability = await getJson<Availability>(`${apiUrl}/api/places/${placeId}/availability?from=${day}&to=${day}`);
  return availability.days[0].slots.find((s) => s.time === time)!.free;
}

export async function choosePlace(page: Page, place: Place): Promise<void> {
  await page.getByLabel('Hľadať podľa názvu').fill(place.name.split(' ')[1] ?? place.name);
  await page.getByRole('button', { name: 'Hľadať' }).click();
  await page.getByRole('button', { name: place.name }).click();
  await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte termín');
}

/**
 * From the first screen, as a person does: a search by name, then the place from the list (which gives
 * it without its services). A fresh load first, not a hash change on the page a test before left.
 */
export async function pickFromList(page: Page, appUrl: string, search: string, name: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${appUrl}/#/`);
  await page.getByLabel('Hľadať podľa názvu').fill(search);
  await page.getByRole('button', { name: 'Hľadať' }).click();
  await page.getByRole('button', { name }).click();
}

/** Opens the day and returns the seat count the slot button shows. */
export async function shownFreeSeats(page: Page, day: string, time: string): Promise<string> {
  await page.locator(`button.day[data-day="${day}"]`).click();
  return (await page.locator(`button.slot[data-time="${time}"] span`).textContent()) ?? '';
}

export async function chooseSlot(page: Page, day: string, time: string): Promise<void> {
  await page.locator(`button.day[data-day="${day}"]`).click();
  await page.locator(`button.slot[data-time="${time}"]`).click();
}

export async function fillPerson(page: Page, person: Person): Promise<void> {
  await page.getByLabel('Meno a priezvisko').fill(person.name);
  await page.getByLabel('Telefón').fill(person.phone);
  await page.getByLabel('Rodné číslo').fill(person.nationalId);
}

let counter = 0;
/** A person nobody else in this run uses: one active reservation per person is a rule. */
export function newPerson(name = 'Jana Testová'): Person {
  counter += 1;
  const unique = `${Date.now() % 1_000_000}${counter}`.padStart(8, '0');
  return { name, phone: `0905 ${unique.slice(-6, -3)} ${unique.slice(-3)}`, nationalId: `${unique}${counter}`.slice(0, 12) };
}

/**
 * From a screen's sign-in card through the test OpenID provider's form (tools/oidc-test-provider) and
 * back: answers once the browser is on the app again.
 */
export async function signInThroughProvider(page: Page, appUrl: string, issuer: string, user: string): Promise<void> {
  await page.getByRole('button', { name: 'Prihlásiť sa účtom pracoviska' }).click();
  await page.waitForURL((url) => url.href.startsWith(issuer));
  await page.getByLabel('User name').fill(user);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.href.startsWith(appUrl));
}
