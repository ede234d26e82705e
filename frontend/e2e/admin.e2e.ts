import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Availability } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { type RunningApi, startApiWithProvider } from './stack';
import { getJson, signInThroughProvider } from './steps';

// The admin screens, signed in through a real OpenID provider (tools/oidc-test-provider, another
// origin) as the staff screens are: the SPA built with that provider's address and an API that trusts
// it. No key is pasted anywhere; the role in the token decides, and the API checks it on every call.
inject('apiUrl'); // the shared stack has built the API this file starts again

async function signIn(page: Page, appUrl: string, issuer: string, user: string): Promise<void> {
  await page.goto(`${appUrl}/#/admin`);
  await expect.poll(() => page.locator('h1').textContent()).toBe('Správa');
  await signInThroughProvider(page, appUrl, issuer, user);
  await expect.poll(() => page.url()).toBe(`${appUrl}/#/admin`);
}

describe('an admin and a viewer', () => {
  const stopping: { stop: () => Promise<void> | void }[] = [];
  let api: RunningApi;
  let issuer: string;
  let browser: Browser;

  beforeAll(async () => {
    const stack = await startApiWithProvider('admin', [
      { sub: 'admin-1', roles: ['admin'] },
      { sub: 'viewer-1', roles: ['viewer'] },
      { sub: 'nurse-1', roles: ['site-staff'], places: ['1'] },
    ]);
    stopping.push(stack);
    ({ api, issuer } = stack);
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const s of stopping.reverse()) await s.stop();
  });

  it('signs in through the provider as admin, with no key to paste and the token kept for the tab only', async () => {
    const { page } = browser;
    await page.goto(`${api.url}/#/admin`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Správa');
    expect(await page.getByText('API kľúč').count()).toBe(0);
    expect(await page.getByText('Vývojový token').count()).toBe(0);
    await expectAccessible(page, 'admin sign-in');
    await signIn(page, api.url, issuer, 'admin-1');
    await expect.poll(() => page.locator('.staff-bar p').textContent()).toBe('Prihlásený: admin-1 (správca)');
    const kept = JSON.parse((await page.evaluate(() => sessionStorage.getItem('slots.staffToken'))) ?? '{}') as { token?: string; source?: string };
    expect(kept.source).toBe('sign-in');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(kept.token);
    expect(await page.evaluate(() => Object.keys(sessionStorage))).not.toContain('slots.adminKey');
  });

  it('creates a place, previews slot generation, then generates exactly that', async () => {
    const { page } = browser;
    // Every admin call carries the signed-in person's token, and no key.
    const sent: { authorization?: string; key?: string }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/admin/')) sent.push({ authorization: request.headers().authorization, key: request.headers()['x-api-key'] });
    });
    const create = page.locator('section.card', { has: page.getByRole('heading', { name: 'Nové miesto' }) });
    await create.getByLabel('Názov').fill('Odberné miesto E2E');
    await create.getByLabel('Adresa').fill('Testovacia 1, Bratislava');
    await create.getByLabel('Kraj').fill('Bratislavský kraj');
    await create.getByRole('button', { name: 'Vytvoriť' }).click();
    await expect.poll(() => create.getByRole('status').textContent()).toMatch(/č\. \d+/);
    const id = Number(/č\. (\d+)/.exec((await create.getByRole('status').textContent()) ?? '')?.[1]);
    expect(id).toBeGreaterThan(0);

    const generate = page.locator('section.card', { has: page.getByRole('heading', { name: 'Generovanie termínov' }) });
    await generate.getByLabel('Čísla miest').fill(String(id));
    expect(await generate.getByRole('button', { name: 'Vygenerovať' }).isDisabled()).toBe(true);
    await generate.getByRole('button', { name: 'Náhľad' }).click();
    await expect.poll(() => generate.getByRole('status').textContent()).toMatch(/^Náhľad – nové termíny: \d+,/);
    const preview = Number(/nové termíny: (\d+)/.exec((await generate.getByRole('status').textContent()) ?? '')?.[1]);
    expect(preview).toBeGreaterThan(0);
    const before = await getJson<Availability>(`${api.url}/api/places/${id}/availability`);
    expect(before.days.flatMap((d) => d.slots)).toHaveLength(0);
    await expectAccessible(page, 'admin');
    await screenshot(page, '08-admin-preview');

    await generate.getByRole('button', { name: 'Vygenerovať' }).click();
    await expect.poll(() => generate.getByRole('status').textContent()).toMatch(/^Vygenerované – nové termíny: \d+,/);
    expect(await generate.getByRole('status').textContent()).toContain(`nové termíny: ${preview},`);
    const after = await getJson<Availability>(`${api.url}/api/places/${id}/availability?from=${before.from}&to=${before.to}`);
    expect(after.days.flatMap((d) => d.slots).length).toBeGreaterThan(0);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const headers of sent) {
      expect(headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      expect(headers.key).toBeUndefined();
    }
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
    const create = page.locator('section.card', { has: page.getByRole('heading', { name: 'Nové miesto' }) });
    await create.getByLabel('Názov').fill('Otvorenie E2E');
    await create.getByLabel('Adresa').fill('Testovacia 3, Žilina');
    await create.getByLabel('Kraj').fill('Žilinský kraj');
    await create.getByRole('button', { name: 'Vytvoriť' }).click();
    await expect.poll(() => create.getByRole('status').textContent()).toContain('Otvorenie E2E');
    const placeId = Number(/č\. (\d+)/.exec((await create.getByRole('status').textContent()) ?? '')?.[1]);
    expect(placeId).toBeGreaterThan(0);

    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Otvorenia s čakárňou' }) });
    await card.getByLabel('Čísla miest').fill(String(placeId));
    await card.getByRole('button', { name: 'Vyhlásiť otvorenie' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toMatch(/^Otvorenie č\. \d+ je vyhlásené\.$/);
    const id = Number(/č\. (\d+)/.exec((await card.getByRole('status').textContent()) ?? '')?.[1]);
    await expect.poll(() => card.getByTestId(`opening-${id}`).count()).toBe(1);
    expect(await card.getByTestId(`opening-${id}`).textContent()).toContain('otvorené');
    const listed = await getJson<{ id: number; placeIds: number[] }[]>(`${api.url}/api/waiting-room/openings`);
    expect(listed.find((o) => o.id === id)?.placeIds).toEqual([placeId]);
    await expectAccessible(page, 'admin with an opening');

    await card.getByRole('button', { name: `Zatvoriť otvorenie č. ${id}` }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toBe(`Otvorenie č. ${id} je zatvorené.`);
    await expect.poll(() => card.getByTestId(`opening-${id}`).textContent()).toContain('zatvorené');

    await page.getByRole('button', { name: 'Odhlásiť' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Prihlásiť sa účtom pracoviska' }).count()).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('slots.staffToken'))).toBeNull();
  });

  it('lets a viewer read the statistics and offers no admin action', async () => {
    const viewer = await openBrowser();
    try {
      const { page } = viewer;
      await signIn(page, api.url, issuer, 'viewer-1');
      await expect.poll(() => page.locator('.staff-bar p').textContent()).toBe('Prihlásený: viewer-1 (prehliadanie štatistík)');
      const stats = page.locator('section.card', { has: page.getByRole('heading', { name: 'Štatistika po dňoch' }) });
      await stats.getByRole('button', { name: 'Zobraziť' }).click();
      await expect.poll(() => stats.locator('tbody tr').count()).toBeGreaterThan(0);
      expect(await stats.getByRole('alert').count()).toBe(0);
      // Viewers read the statistics and the invitation batches' counts (never the codes), and change nothing.
      expect(await page.locator('h2').allTextContents()).toEqual(['Štatistika po dňoch', 'Pozývacie kódy']);
      expect(await page.getByRole('button', { name: /Vytvoriť|Vygenerovať|Náhľad|Vyhlásiť otvorenie|Vydať|Zrušiť/ }).count()).toBe(0);
      await expectAccessible(page, 'admin screens of a viewer');

      await page.getByRole('button', { name: 'English' }).click();
      await expect.poll(() => page.locator('.staff-bar p').textContent()).toBe('Signed in as viewer-1 (statistics viewer)');
      await expectAccessible(page, 'admin screens of a viewer in English');
      await page.getByRole('button', { name: 'Slovensky' }).click();
    } finally {
      await viewer.close();
    }
  });

  it('tells someone signed in without the admin or viewer role that the role is missing', async () => {
    const nurse = await openBrowser();
    try {
      const { page } = nurse;
      await signIn(page, api.url, issuer, 'nurse-1');
      await expect.poll(() => page.getByRole('alert').textContent())
        .toBe('Účet nurse-1 nemá rolu správcu ani prehliadania štatistík (admin alebo viewer), preto túto časť nemôže otvoriť. '
          + 'Požiadajte správcu prihlasovania o rolu alebo sa prihláste iným účtom.');
      expect(await page.locator('section.card').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Odhlásiť' }).count()).toBe(1);
      await expectAccessible(page, 'admin screens without the role');
    } finally {
      await nurse.close();
    }
  });
});
