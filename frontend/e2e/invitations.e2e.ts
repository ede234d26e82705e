import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { InvitationBatch, Place } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { type RunningApi, startApiWithProvider } from './stack';
import { chooseSlot, fillPerson, getJson, newPerson, pickFromList, signInThroughProvider } from './steps';

// A service for invitation code holders only, through the served pages: an admin sets the rule and
// issues a batch of two codes on the admin page (the CSV saved as the browser's download); on the
// booking page a person without a code is asked for one, a person with a code books, the next with
// the same code is told it was used; after the admin revokes the batch, its other code admits nobody. A
// person who picks the place from the search list (which gives it without its services) is asked for a
// code up front too, not only after the API refuses the booking.
// The API judges each code in the seat's own database operation (Development has an invitation key).
inject('apiUrl'); // the shared stack has built the API this file starts again

const adminKey = { 'X-Api-Key': 'dev-admin-key-0000' }; // appsettings.Development.json: the setup and the checks only

async function send<T>(method: string, url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method, headers: { ...adminKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

describe('a service for invitation code holders', () => {
  const stopping: { stop: () => Promise<void> | void }[] = [];
  let api: RunningApi;
  let issuer: string;
  let browser: Browser;
  let person: Page;
  let place: Place;
  let codes: string[] = [];
  let batchId = 0;
  const code = `teachers-${Date.now().toString(36)}`;
  const label = 'Učitelia E2E';
  const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    const stack = await startApiWithProvider('invitations', [{ sub: 'admin-1', roles: ['admin'] }]);
    stopping.push(stack);
    ({ api, issuer } = stack);
    place = await send<Place>('POST', `${api.url}/api/admin/places`,
      { name: 'Očkovacie centrum Pozvánky', address: 'Testovacia 5, Bratislava', region: 'Bratislavský kraj', timeZone: 'Europe/Bratislava' });
    await send('POST', `${api.url}/api/admin/services`, { code, nameSk: 'Očkovanie učiteľov', nameEn: 'Teachers\' vaccination' });
    await send('PUT', `${api.url}/api/admin/places/${place.id}/services/${code}`, {
      seats: 3, template: { firstStart: '08:00', lastStart: '08:30', intervalMinutes: 30, lengthMinutes: 15 },
    });
    await send('PUT', `${api.url}/api/admin/places/${place.id}/services/default`, { active: false });
    await send('POST', `${api.url}/api/admin/slots/generate`, { placeIds: [place.id], from: day, to: day, service: code });
    browser = await openBrowser();
    // The person books in a tab of their own; the admin's tab keeps its sign-in (sessionStorage is per tab).
    person = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    for (const s of stopping.reverse()) await s.stop();
  });

  const card = (page: Page, heading: string) => page.locator('section.card', { has: page.getByRole('heading', { name: heading, exact: true }) });
  const confirmButton = () => person.getByRole('button', { name: 'Potvrdiť rezerváciu' });
  const reserved = () => person.waitForResponse((r) => r.url().endsWith('/api/reservations') && r.request().method() === 'POST');
  const openBooking = async () => {
    await person.goto('about:blank');
    await person.goto(`${api.url}/#/place/${place.id}`);
    await expect.poll(() => person.locator('h1').textContent()).toBe('Vyberte termín');
    await chooseSlot(person, day, '08:00');
  };

  it('sets the rule to invitation holders only and issues a batch of two, saved as a file once', async () => {
    const { page } = browser;
    await page.goto(`${api.url}/#/admin`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Správa');
    await signInThroughProvider(page, api.url, issuer, 'admin-1');
    await expect.poll(() => page.url()).toBe(`${api.url}/#/admin`);

    const who = card(page, 'Kto sa môže objednať');
    await who.getByLabel('Služba', { exact: true }).selectOption(code);
    await who.getByLabel('Len s pozývacím kódom').check();
    await who.getByRole('button', { name: 'Uložiť pravidlo' }).click();
    await expect.poll(() => who.getByRole('status').textContent()).toBe(`Službu ${code} si môžu rezervovať len ľudia s pozývacím kódom.`);
    const offered = (await getJson<Place>(`${api.url}/api/places/${place.id}`)).services ?? [];
    expect(offered.find((s) => s.code === code)?.invitation).toBe('required');

    const invitations = card(page, 'Pozývacie kódy');
    await invitations.getByLabel('Služba', { exact: true }).selectOption(code);
    await expect.poll(() => invitations.getByText('Služba zatiaľ nemá žiadnu skupinu kódov.').count()).toBe(1);
    // Nothing typed: each field says what it needs, and nothing is sent.
    await invitations.getByRole('button', { name: 'Vydať a stiahnuť' }).click();
    expect(await invitations.locator('.field-invalid .error').allTextContents())
      .toEqual(['Zadajte označenie: 1 až 100 znakov.', 'Zadajte počet od 1 do 100 000.']);
    await expect.poll(() => invitations.getByLabel('Počet kódov').getAttribute('aria-invalid')).toBe('true');

    await invitations.getByLabel('Označenie skupiny').fill(label);
    await invitations.getByLabel('Počet kódov').fill('2');
    const issued = page.waitForResponse((r) => r.url().endsWith(`/api/admin/services/${code}/invitations`) && r.request().method() === 'POST');
    const download = page.waitForEvent('download');
    await invitations.getByRole('button', { name: 'Vydať a stiahnuť' }).click();
    const answer = await issued;
    expect(answer.status()).toBe(201);
    const saved = await download;
    // The file is the API's answer, its byte-order mark kept for spreadsheets (the body Playwright
    // records of the answer comes without it: it goes through the DevTools protocol as text).
    const file = readFileSync(await saved.path());
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(file.subarray(3).equals(await answer.body())).toBe(true);
    const rows = file.toString('utf8').slice(1).split('\r\n').filter(Boolean).map((line) => line.split(','));
    expect(rows[0]).toEqual(['code', 'service', 'batch', 'label']);
    codes = rows.slice(1).map((r) => r[0]);
    expect(codes).toHaveLength(2);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    batchId = Number(rows[1][2]);
    expect(saved.suggestedFilename()).toBe(`invitations-${code}-${batchId}.csv`);

    await expect.poll(() => invitations.getByRole('status').textContent())
      .toBe(`Skupina „${label}“ je vydaná (kódov: 2) a uložená ako invitations-${code}-${batchId}.csv. Znova sa kódy stiahnuť nedajú: súbor uschovajte.`);
    const row = invitations.getByTestId(`batch-${batchId}`);
    await expect.poll(() => row.locator('th, td').allTextContents()).toEqual([label, '2', '0', expect.stringContaining('(admin-1)'), 'platí', 'Zrušiť']);
    const listed = await getJson<InvitationBatch[]>(`${api.url}/api/admin/invitations?service=${code}`, adminKey);
    expect(listed.map((b) => [b.id, b.label, b.size, b.spent, b.revokedAt])).toEqual([[batchId, label, 2, 0, null]]);
    await expectAccessible(page, 'admin invitations');
    await screenshot(page, '18-admin-invitations');
  });

  // Regression: picked from the list, the place showed the code field only after the API refused the booking.
  it('asks for a code up front at the place picked from the search list, and sends nothing without one', async () => {
    const bookings: string[] = [];
    const seen = (r: { url: () => string; method: () => string }) => {
      if (r.url().endsWith('/api/reservations')) bookings.push(r.method());
    };
    person.on('request', seen);
    await pickFromList(person, api.url, 'Pozvánky', place.name);
    await expect.poll(() => person.locator('h1').textContent()).toBe('Vyberte termín');
    await chooseSlot(person, day, '08:00');
    await expect.poll(() => person.locator('h1').textContent()).toBe('Vaše údaje');
    expect(await person.getByLabel('Pozývací kód').count()).toBe(1);
    expect(await person.getByText('Túto službu si môžu rezervovať len ľudia s pozývacím kódom: 12 písmen a číslic').count()).toBe(1);
    await expectAccessible(person, 'invitation code asked at a place from the list');

    await fillPerson(person, newPerson('Zo Zoznamu'));
    await confirmButton().click();
    await expect.poll(() => person.getByLabel('Pozývací kód').getAttribute('aria-invalid')).toBe('true');
    expect(await person.locator('.field-invalid .error').allTextContents()).toEqual(['Zadajte pozývací kód.']);
    person.off('request', seen);
    expect(bookings).toEqual([]);
  });

  it('asks a person for a code, books the one who brings it, and tells the next that it was used', async () => {
    await openBooking();
    const field = person.getByLabel('Pozývací kód');
    expect(await person.getByText('Túto službu si môžu rezervovať len ľudia s pozývacím kódom: 12 písmen a číslic').count()).toBe(1);

    // No code, then one that cannot be a code (U is not a symbol): the page says so, and sends nothing.
    await fillPerson(person, newPerson('Bez Kódu'));
    await confirmButton().click();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    expect(await person.locator('.field-invalid .error').allTextContents()).toEqual(['Zadajte pozývací kód.']);
    await field.fill('ABCD-EFGH-JKMU');
    await field.blur();
    await expect.poll(() => person.locator('.field-invalid .error').allTextContents())
      .toEqual(['Pozývací kód má 12 písmen a číslic, napríklad ABCD-EFGH-JKMN.']);

    // Typed as people type it: lower case, without the dashes.
    await field.fill(codes[0].toLowerCase().replaceAll('-', ''));
    const booked = reserved();
    await confirmButton().click();
    expect((await booked).status()).toBe(201);
    expect((await booked).request().postDataJSON()).toMatchObject({ invitation: codes[0].toLowerCase().replaceAll('-', '') });
    await expect.poll(() => person.locator('h1').textContent()).toBe('Rezervácia je potvrdená');

    await openBooking();
    await fillPerson(person, newPerson('Druhý S Kódom'));
    await person.getByLabel('Pozývací kód').fill(codes[0]);
    const refused = reserved();
    await confirmButton().click();
    const problem = (await (await refused).json()) as { code: string; rule?: string; reason?: string };
    expect(problem).toMatchObject({ code: 'not-eligible', rule: 'invitation', reason: 'invitation-used' });
    const used = 'Tento pozývací kód už bol použitý na rezerváciu. Každý kód platí len na jednu.';
    await expect.poll(() => person.getByRole('alert').textContent()).toBe(used);
    expect(await person.locator('.field-invalid .error').allTextContents()).toEqual([used]);
    await expectAccessible(person, 'invitation code used');
    await screenshot(person, '17-invitation-code');
  });

  it('revokes the batch on the admin page after a confirmation: its unspent code admits nobody', async () => {
    const { page } = browser;
    const invitations = card(page, 'Pozývacie kódy');
    await invitations.getByRole('button', { name: `Zrušiť skupinu ${label}` }).click();
    const question = invitations.getByRole('group');
    await expect.poll(() => question.locator('p').first().textContent())
      .toBe(`Naozaj zrušiť skupinu „${label}“? Žiadny z jej nepoužitých kódov (1) už nikoho neprijme; urobené rezervácie zostávajú. Zrušenie sa nedá vrátiť.`);
    await expectAccessible(page, 'admin invitations revoke confirmation');
    await question.getByRole('button', { name: 'Áno, zrušiť' }).click();
    await expect.poll(() => invitations.getByRole('status').textContent()).toBe(`Skupina „${label}“ je zrušená: jej kódy už nikoho neprijmú.`);
    const row = invitations.getByTestId(`batch-${batchId}`);
    await expect.poll(() => row.locator('td').nth(3).textContent()).toMatch(/^zrušená .* \(admin-1\)$/);
    expect(await row.locator('td').nth(1).textContent()).toBe('1');
    expect(await row.getByRole('button').count()).toBe(0);

    await openBooking();
    await fillPerson(person, newPerson('Tretí S Kódom'));
    await person.getByLabel('Pozývací kód').fill(codes[1]);
    const refused = reserved();
    await confirmButton().click();
    expect(await (await refused).json()).toMatchObject({ code: 'not-eligible', rule: 'invitation', reason: 'invitation-revoked' });
    await expect.poll(() => person.getByRole('alert').textContent())
      .toBe('Tento pozývací kód už neplatí: skupina kódov, do ktorej patrí, bola zrušená. Obráťte sa na toho, kto vám ho dal.');
  });
});
