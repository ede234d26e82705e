import { existsSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, type TestContext } from 'vitest';
import type { Place } from '../src/api/types';
import { signInThroughProvider } from './steps';

// What the staff screens' tests share: a place whose day is at noon now, staff signed in through the
// test OpenID provider, the SMS the API wrote, and a skip that says why.

export const adminKey = { 'X-Api-Key': 'dev-admin-key-0000' };

/**
 * Skips the test with the reason; under CI (CI=true) fails it instead, as the .NET suites' Unavailable
 * does: there a skip would read green over a regression.
 */
export function skipOrFail(ctx: TestContext, reason: string): never {
  if (process.env.CI?.trim().toLowerCase() === 'true') throw new Error(`${reason} (CI=true: a test that cannot run fails instead of skipping)`);
  return ctx.skip(reason);
}

/** The SMS the API's development sink wrote (one JSON line each), as { to, text }. */
export function sentSms(path: string): { to: string; text: string }[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { to: string; text: string });
}

/** A place whose day is at noon now, its day, and its two slots (capacity 5): soon (20 to 30 minutes on) and two hours later. */
export interface OpenNow {
  place: Place;
  day: string;
  soon: string;
  later: string;
}

/**
 * A new place in the time zone where it is about noon now, so that its slot a quarter of an hour away
 * can be booked and checked in (the door takes ±60 min of the start) and no test time runs past midnight.
 */
export async function placeOpenNow(apiUrl: string): Promise<OpenNow> {
  const utc = new Date();
  const offset = 12 - utc.getUTCHours();
  const zone = offset === 0 ? 'Etc/GMT' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
  const local = new Date(utc.getTime() + offset * 3_600_000 + 20 * 60_000);
  local.setUTCMinutes(local.getUTCMinutes() - (local.getUTCMinutes() % 10));
  const day = local.toISOString().slice(0, 10);
  const soon = local.toISOString().slice(11, 16);
  const later = new Date(local.getTime() + 120 * 60_000).toISOString().slice(11, 16);
  const post = async (path: string, body: object) => {
    const response = await fetch(`${apiUrl}${path}`, { method: 'POST', headers: { ...adminKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const place = (await post('/api/admin/places', {
    name: `Dvere Pracovisko${Date.now() % 100_000}`, address: 'Hlavná 1, Bratislava', region: 'Bratislavský kraj', timeZone: zone, active: true,
  })) as Place;
  await post('/api/admin/slots/generate', {
    placeIds: [place.id], from: day, to: day,
    template: { firstStart: soon, lastStart: later, intervalMinutes: 120, lengthMinutes: 10 }, capacity: 5,
  });
  return { place, day, soon, later };
}

/** The staff screen, signed in as the provider's user. */
export async function signIn(page: Page, appUrl: string, issuer: string, user: string): Promise<void> {
  await page.goto(`${appUrl}/#/staff`);
  await expect.poll(() => page.locator('h1').textContent()).toBe('Príjem na mieste');
  await signInThroughProvider(page, appUrl, issuer, user);
  await expect.poll(() => page.locator('.staff-bar p').textContent()).toMatch(new RegExp(`^Prihlásený: ${user} `));
}
