import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Availability } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { getJson } from './steps';

const appUrl = inject('appUrl');
const apiUrl = inject('apiUrl');

describe('a staff member', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs in with a key kept only for the tab', async () => {
    const { page } = browser;
    await page.goto(`${appUrl}/#/admin`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Správa');
    await expectAccessible(page, 'admin sign-in');
    await page.getByLabel('API kľúč').fill('wrong-key-1234');
    await page.getByRole('button', { name: 'Prihlásiť' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Kľúč nebol prijatý.');

    await page.getByLabel('API kľúč').fill('dev-admin-key-0000');
    await page.getByRole('button', { name: 'Prihlásiť' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Odhlásiť' }).count()).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('slots.adminKey'))).toBe('dev-admin-key-0000');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain('dev-admin-key-0000');
  });

  it('creates a place, previews slot generation, then generates exactly that', async () => {
    const { page } = browser;
    const create = page.locator('section.card', { has: page.getByRole('heading', { name: 'Nové miesto' }) });
    await create.getByLabel('Názov').fill('Odberné miesto E2E');
    await create.getByLabel('Adresa').fill('Testovacia 1, Bratislava');
    await create.getByLabel('Kraj').fill('Bratislavský kraj');
    await create.getByRole('button', { name: 'Vytvoriť' }).click();
    const created = (await create.getByRole('status').textContent()) ?? '';
    const id = Number(/č\. (\d+)/.exec(created)?.[1]);
    expect(id).toBeGreaterThan(0);

    const generate = page.locator('section.card', { has: page.getByRole('heading', { name: 'Generovanie termínov' }) });
    await generate.getByLabel('Čísla miest').fill(String(id));
    expect(await generate.getByRole('button', { name: 'Vygenerovať' }).isDisabled()).toBe(true);
    await generate.getByRole('button', { name: 'Náhľad' }).click();
    await expect.poll(() => generate.getByRole('status').textContent()).toMatch(/^Náhľad – nové termíny: \d+,/);
    const preview = Number(/nové termíny: (\d+)/.exec((await generate.getByRole('status').textContent()) ?? '')?.[1]);
    expect(preview).toBeGreaterThan(0);
    const before = await getJson<Availability>(`${apiUrl}/api/places/${id}/availability`);
    expect(before.days.flatMap((d) => d.slots)).toHaveLength(0);
    await expectAccessible(page, 'admin');
    await screenshot(page, '08-admin-preview');

    await generate.getByRole('button', { name: 'Vygenerovať' }).click();
    await expect.poll(() => generate.getByRole('status').textContent()).toMatch(/^Vygenerované – nové termíny: \d+,/);
    expect(await generate.getByRole('status').textContent()).toContain(`nové termíny: ${preview},`);
    const after = await getJson<Availability>(`${apiUrl}/api/places/${id}/availability?from=${before.from}&to=${before.to}`);
    expect(after.days.flatMap((d) => d.slots).length).toBeGreaterThan(0);
  });

  it('adds demo data and reads statistics per day', async () => {
    const { page } = browser;
    const demo = page.locator('section.card', { has: page.getByRole('heading', { name: 'Ukážkové údaje' }) });
    await demo.getByLabel('Miest', { exact: true }).fill('1');
    await demo.getByLabel('Dní').fill('2');
    await demo.getByRole('button', { name: 'Vytvoriť' }).click();
    await expect.poll(() => demo.getByRole('status').textContent()).toMatch(/^Vytvorené – miesta: 1,/);

    const stats = page.locator('section.card', { has: page.getByRole('heading', { name: 'Štatistika po dňoch' }) });
    await stats.getByRole('button', { name: 'Zobraziť' }).click();
    await expect.poll(() => stats.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await stats.locator('thead th').allTextContents()).toEqual(['Dátum', 'Termíny', 'Miesta', 'Voľné', 'Rezervácie', 'Prišli', 'Neprišli']);
    await expectAccessible(page, 'admin with statistics');
    await screenshot(page, '09-admin-stats');
  });

  it('announces an opening over a place, sees it answer in the waiting room, and closes it', async () => {
    const { page } = browser;
    // A place of its own: an opening over a place other tests book would send them to its room.
    const place = await (await fetch(`${apiUrl}/api/admin/places`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': 'dev-admin-key-0000' },
      body: JSON.stringify({ name: 'Otvorenie E2E', address: 'Testovacia 3, Žilina', region: 'Žilinský kraj', timeZone: 'Europe/Bratislava', active: true }),
    })).json() as { id: number };
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Otvorenia s čakárňou' }) });
    await card.getByLabel('Čísla miest').fill(String(place.id));
    await card.getByRole('button', { name: 'Vyhlásiť otvorenie' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toMatch(/^Otvorenie č\. \d+ je vyhlásené\.$/);
    const id = Number(/č\. (\d+)/.exec((await card.getByRole('status').textContent()) ?? '')?.[1]);
    await expect.poll(() => card.getByTestId(`opening-${id}`).count()).toBe(1);
    expect(await card.getByTestId(`opening-${id}`).textContent()).toContain('otvorené');
    const listed = await getJson<{ id: number; placeIds: number[] }[]>(`${apiUrl}/api/waiting-room/openings`);
    expect(listed.find((o) => o.id === id)?.placeIds).toEqual([place.id]);
    await expectAccessible(page, 'admin with an opening');

    await card.getByRole('button', { name: `Zatvoriť otvorenie č. ${id}` }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toBe(`Otvorenie č. ${id} je zatvorené.`);
    await expect.poll(() => card.getByTestId(`opening-${id}`).textContent()).toContain('zatvorené');
  });
});
