import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Availability, Offer, Place, Service, Stats } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { type RunningApi, startApiWithProvider } from './stack';
import { getJson, newPerson, signInThroughProvider } from './steps';

// An admin sets up a service through the served page, signed in through the test OpenID provider as
// admin.e2e.ts is: adds it to the catalogue, offers it at a place with a template, generates its slots
// from that stored offer, and reads the statistics of that service alone. Each step is checked against
// the API's own answers.
inject('apiUrl'); // the shared stack has built the API this file starts again

const adminKey = { 'X-Api-Key': 'dev-admin-key-0000' }; // appsettings.Development.json: the setup and the checks only

async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = adminKey): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as T;
}

describe('an admin sets up a service', () => {
  const stopping: { stop: () => Promise<void> | void }[] = [];
  let api: RunningApi;
  let issuer: string;
  let browser: Browser;
  let place: Place;
  const code = `pcr-${Date.now().toString(36)}`;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const [first, last] = [day(2), day(3)];
  const availability = (service: string) =>
    getJson<Availability>(`${api.url}/api/places/${place.id}/availability?from=${first}&to=${last}&service=${service}`);

  beforeAll(async () => {
    const stack = await startApiWithProvider('services-admin', [{ sub: 'admin-1', roles: ['admin'] }]);
    stopping.push(stack);
    ({ api, issuer } = stack);
    place = await postJson<Place>(`${api.url}/api/admin/places`,
      { name: 'Odberné miesto Služby E2E', address: 'Testovacia 4, Bratislava', region: 'Bratislavský kraj', timeZone: 'Europe/Bratislava' });
    // One slot a day of the place's default service: the statistics of every service count it, the new service's do not.
    await postJson(`${api.url}/api/admin/slots/generate`, {
      placeIds: [place.id], from: first, to: last, capacity: 1,
      template: { firstStart: '08:00', lastStart: '08:00', intervalMinutes: 15, lengthMinutes: 15 },
    });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const s of stopping.reverse()) await s.stop();
  });

  const card = (page: Page, heading: string) => page.locator('section.card', { has: page.getByRole('heading', { name: heading, exact: true }) });

  it('adds a service, showing the API\'s refusal of a code in use beside the code', async () => {
    const { page } = browser;
    await page.goto(`${api.url}/#/admin`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Správa');
    await signInThroughProvider(page, api.url, issuer, 'admin-1');
    await expect.poll(() => page.url()).toBe(`${api.url}/#/admin`);
    const services = card(page, 'Služby');
    await expect.poll(() => services.getByTestId('service-default').count()).toBe(1);

    // The default service's code is taken: the API's 400 names code, and the page says so at the field.
    await services.getByLabel('Kód', { exact: true }).fill('default');
    await services.getByLabel('Názov po slovensky').fill('PCR test E2E');
    await services.getByLabel('Názov po anglicky').fill('PCR test E2E en');
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/admin/services') && r.request().method() === 'POST');
    await services.getByRole('button', { name: 'Pridať službu' }).click();
    expect((await refused).status()).toBe(400);
    await expect.poll(() => services.getByLabel('Kód', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await services.locator('.field-invalid .error').allTextContents())
      .toEqual(['Zadajte kód: 1 až 32 malých písmen, číslic alebo pomlčiek, ktorý ešte nemá iná služba.']);
    expect(await services.getByRole('alert').textContent()).toBe('Skontrolujte označené polia.');
    await expectAccessible(page, 'admin services with a field error');

    await services.getByLabel('Kód', { exact: true }).fill(code);
    await services.getByRole('button', { name: 'Pridať službu' }).click();
    await expect.poll(() => services.getByRole('status').textContent()).toBe(`Služba PCR test E2E (${code}) je pridaná.`);
    await expect.poll(() => services.getByTestId(`service-${code}`).textContent()).toContain('aktívna');
    const listed = (await getJson<Service[]>(`${api.url}/api/services`)).find((s) => s.code === code);
    expect(listed).toEqual({ code, nameSk: 'PCR test E2E', nameEn: 'PCR test E2E en' });
  });

  it('offers it at a place with a template, which the place\'s page then lists', async () => {
    const { page } = browser;
    const offers = card(page, 'Služby miesta');
    await offers.getByLabel('Číslo miesta').fill(String(place.id));
    await offers.getByRole('button', { name: 'Načítať' }).click();
    await expect.poll(() => offers.getByTestId('offer-default').count()).toBe(1);
    expect(await offers.getByTestId(`offer-${code}`).count()).toBe(0);

    await offers.getByLabel('Služba', { exact: true }).selectOption(code);
    await offers.getByLabel('Miest v termíne').fill('3');
    await offers.getByLabel('Prvý začiatok').fill('09:00');
    await offers.getByLabel('Posledný začiatok').fill('10:00');
    await offers.getByLabel('Interval (min)').fill('30');
    await offers.getByLabel('Dĺžka (min)').fill('20');
    await offers.getByRole('button', { name: 'Uložiť ponuku' }).click();
    await expect.poll(() => offers.getByRole('status').textContent())
      .toBe(`Ponuka služby ${code}: ponúka sa, miest v termíne: 3, 09:00 – 10:00 každých 30 min, dĺžka 20 min.`);
    await expect.poll(() => offers.getByTestId(`offer-${code}`).textContent()).toContain('09:00 – 10:00, každých 30 min, termín 20 min');
    const stored = (await getJson<Offer[]>(`${api.url}/api/admin/places/${place.id}/services`, adminKey)).find((o) => o.service === code);
    expect(stored).toEqual({ placeId: place.id, service: code, active: true, seats: 3,
      template: { firstStart: '09:00', lastStart: '10:00', intervalMinutes: 30, lengthMinutes: 20 } });
    // "Change" fills the form in from the stored offer.
    await offers.getByRole('button', { name: `Zmeniť ponuku služby ${code}` }).click();
    expect(await offers.getByLabel('Miest v termíne').inputValue()).toBe('3');
    expect(await offers.getByLabel('Interval (min)').inputValue()).toBe('30');
    const offered = (await getJson<Place>(`${api.url}/api/places/${place.id}`)).services ?? [];
    expect(offered.map((s) => s.code)).toEqual(['default', code]);
    expect(offered.find((s) => s.code === code)?.minutes).toBe(20);
    await expectAccessible(page, 'admin place services');
  });

  it('generates the service\'s slots from the form, with the stored offer\'s template and seats', async () => {
    const { page } = browser;
    const generate = card(page, 'Generovanie termínov');
    await generate.getByLabel('Čísla miest').fill(String(place.id));
    await generate.getByLabel('Služba', { exact: true }).selectOption(code);
    await generate.getByLabel('Od', { exact: true }).fill(first);
    await generate.getByLabel('Do', { exact: true }).fill(last);
    await generate.getByLabel('Šablóna a miesta v termíne z uloženej ponuky služby na mieste').check();
    expect(await generate.getByLabel('Prvý začiatok').count()).toBe(0);
    const previewed = page.waitForRequest((r) => r.url().endsWith('/api/admin/slots/generate'));
    await generate.getByRole('button', { name: 'Náhľad' }).click();
    expect((await previewed).postDataJSON()).toEqual({ placeIds: [place.id], from: first, to: last, dryRun: true, service: code });
    await expect.poll(() => generate.getByRole('status').textContent()).toBe('Náhľad – nové termíny: 6, sedadlá: 18, miesta: 1, už existujúce termíny: 0.');
    expect((await availability(code)).days.flatMap((d) => d.slots)).toHaveLength(0);

    await generate.getByRole('button', { name: 'Vygenerovať' }).click();
    await expect.poll(() => generate.getByRole('status').textContent()).toBe('Vygenerované – nové termíny: 6, sedadlá: 18, miesta: 1, už existujúce termíny: 0.');
    const made = await availability(code);
    expect(made.service).toBe(code);
    expect(made.days.map((d) => [d.day, d.slots.map((s) => `${s.time}/${s.minutes}/${s.capacity}`)])).toEqual([first, last].map((d) => [d,
      ['09:00/20/3', '09:30/20/3', '10:00/20/3']]));
    // The default service's slots are as they were: one a day.
    expect((await availability('default')).days.map((d) => d.slots.length)).toEqual([1, 1]);
  });

  it('shows the statistics of that service alone', async () => {
    const { page } = browser;
    const booked = await fetch(`${api.url}/api/reservations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ placeId: place.id, day: first, time: '09:30', ...newPerson(), service: code }),
    });
    expect(booked.status).toBe(201);

    const stats = card(page, 'Štatistika po dňoch');
    await stats.getByLabel('Od', { exact: true }).fill(first);
    await stats.getByLabel('Do', { exact: true }).fill(last);
    const rows = () => stats.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    const asRows = (s: Stats) => s.days.map((d) => [d.slots, d.seats, d.freeSeats, d.reservations, d.checkedIn, d.noShows].map(String));

    await stats.getByRole('button', { name: 'Zobraziť' }).click();
    await expect.poll(() => stats.getByTestId('stats-service').textContent()).toBe('Všetky služby');
    const every = await getJson<Stats>(`${api.url}/api/admin/stats?from=${first}&to=${last}`, adminKey);
    // Every service of every place (the development seed's too): at least this place's default slot beside the new service's three.
    expect(every.days.map((d) => d.day)).toEqual([first, last]);
    for (const d of every.days) expect(d.slots).toBeGreaterThanOrEqual(4);
    await expect.poll(rows).toEqual(asRows(every));

    await stats.getByLabel('Služba', { exact: true }).selectOption(code);
    await stats.getByRole('button', { name: 'Zobraziť' }).click();
    await expect.poll(() => stats.getByTestId('stats-service').textContent()).toBe(`Služba: PCR test E2E (${code})`);
    const one = await getJson<Stats>(`${api.url}/api/admin/stats?from=${first}&to=${last}&service=${code}`, adminKey);
    expect(one.service).toBe(code);
    expect(asRows(one)).toEqual([['3', '9', '8', '1', '0', '0'], ['3', '9', '9', '0', '0', '0']]);
    await expect.poll(rows).toEqual(asRows(one));
    await expectAccessible(page, 'admin statistics of one service');
    await screenshot(page, '13-admin-services');
  });

  it('renames the service and switches it off: the catalogue then leaves it out', async () => {
    const { page } = browser;
    const services = card(page, 'Služby');
    await services.getByRole('button', { name: `Upraviť službu ${code}` }).click();
    await services.getByLabel('Názov po slovensky').fill('PCR test (premenovaný)');
    await services.getByRole('button', { name: 'Uložiť službu' }).click();
    await expect.poll(() => services.getByRole('status').textContent()).toBe(`Služba PCR test (premenovaný) (${code}) je uložená.`);
    expect((await getJson<Service[]>(`${api.url}/api/services`)).find((s) => s.code === code)?.nameSk).toBe('PCR test (premenovaný)');

    await services.getByRole('button', { name: `Vypnúť službu ${code}` }).click();
    await expect.poll(() => services.getByRole('status').textContent()).toBe(`Služba PCR test (premenovaný) (${code}) je vypnutá: nikde sa nedá rezervovať.`);
    await expect.poll(() => services.getByTestId(`service-${code}`).textContent()).toContain('vypnutá');
    expect((await getJson<Service[]>(`${api.url}/api/services`)).map((s) => s.code)).not.toContain(code);
    await expectAccessible(page, 'admin services with one switched off');

    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => card(page, 'Services').getByTestId(`service-${code}`).textContent()).toContain('switched off');
    expect(await card(page, 'A place\'s services').getByRole('button', { name: 'Save the offer' }).count()).toBe(1);
    await expectAccessible(page, 'admin services in English');
    await page.getByRole('button', { name: 'Slovensky' }).click();
    // Listed as stored (GET /api/admin/services), after a reload too.
    await page.reload();
    await expect.poll(() => card(page, 'Služby').getByTestId(`service-${code}`).textContent()).toContain('vypnutá');
  });
  it('opens the service by age in a dated step, which the API then holds', async () => {
    const { page } = browser;
    const who = card(page, 'Kto sa môže objednať');
    await who.getByLabel('Služba', { exact: true }).selectOption(code);
    await who.getByLabel('Podľa veku').check();
    await who.getByRole('button', { name: 'Uložiť pravidlo' }).click();
    // The step left empty: each field says what it needs.
    await expect.poll(() => who.getByRole('alert').textContent()).toBe('Skontrolujte označené polia.');
    expect(await who.locator('.field-invalid .error').allTextContents()).toEqual(['Zadajte deň a čas.', 'Zadajte dátum narodenia.']);
    await who.getByLabel('Krok 1: otvára sa').fill('2026-01-05T08:00');
    await who.getByLabel('Krok 1: narodení najneskôr').fill('1961-12-31');
    await who.getByRole('button', { name: 'Uložiť pravidlo' }).click();
    await expect.poll(() => who.getByRole('status').textContent()).toBe(`Služba ${code} sa otvára podľa veku.`);
    const stored = (await getJson<Service[]>(`${api.url}/api/admin/services`, adminKey) as unknown as
      { code: string; eligibility?: { rule: string; steps: { opensAt: string; bornOnOrBefore: string }[] } }[]).find((s) => s.code === code);
    expect(stored?.eligibility?.rule).toBe('age');
    expect(stored?.eligibility?.steps.map((s) => s.bornOnOrBefore)).toEqual(['1961-12-31']);
    expect(new Date(stored!.eligibility!.steps[0].opensAt).getTime()).toBe(new Date('2026-01-05T08:00').getTime());
    await expectAccessible(page, 'admin eligibility');
    await screenshot(page, '16-admin-eligibility');
  });
});
