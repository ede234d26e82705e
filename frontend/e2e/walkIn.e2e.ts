import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { type OpenNow, placeOpenNow, sentSms, signIn, skipOrFail } from './door';
import { type RunningApi, startApiWithProvider } from './stack';
import { newPerson } from './steps';

// Booking at the door or on the phone: site staff signed in through the test OpenID provider, at a
// place whose day is at noon now, so the walk-in's slot is within the door's check-in window.
inject('apiUrl'); // the shared stack has built the API this file starts again

describe('a walk-in booked by site staff', () => {
  let stack: { stop: () => Promise<void> } | undefined;
  let api: RunningApi;
  let issuer: string;
  let open: OpenNow;
  const smsDir = mkdtempSync(join(tmpdir(), 'slots-e2e-sms-'));
  const smsFile = join(smsDir, 'sms.jsonl');
  let browser: Browser;
  // Sign-in needs the provider in the API's Content-Security-Policy (connect-src): skipped, saying so, without it.
  let blockedBy: string | null = null;

  beforeAll(async () => {
    const started = await startApiWithProvider('walk-in', async (running) => {
      open = await placeOpenNow(running.url);
      return [{ sub: 'nurse-2', roles: ['site-staff'], places: [String(open.place.id)] }];
    }, { Slots__Sms__File__Path: smsFile });
    stack = started;
    ({ api, issuer } = started);
    const policy = (await fetch(`${api.url}/`)).headers.get('content-security-policy') ?? '';
    if (!/connect-src([^;]*)/.exec(policy)?.[1].trim().split(/\s+/).includes(issuer)) blockedBy = `no connect-src ${issuer}: ${policy}`;
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(smsDir, { recursive: true, force: true });
  });

  it('books and checks in the person at the door, then refuses a second booking for the same national id', async (ctx) => {
    if (blockedBy) return skipOrFail(ctx, blockedBy);
    const { page } = browser;
    await signIn(page, api.url, issuer, 'nurse-2');
    const card = page.locator('section.card[aria-labelledby="walk-in"]');
    await expect.poll(() => card.getByRole('heading').first().textContent()).toBe('Objednať na mieste / telefonicky');
    const time = card.getByLabel('Čas', { exact: true });

    // The place's today and its free times are the form's; the SMS is on and checking in is off until asked.
    await expect.poll(() => card.getByLabel('Deň', { exact: true }).inputValue()).toBe(open.day);
    await expect.poll(() => time.locator(`option[value="${open.soon}"]`).textContent()).toBe(`${open.soon} (voľné: 5)`);
    expect(await card.getByLabel('Poslať potvrdzujúcu SMS').isChecked()).toBe(true);
    expect(await card.getByLabel('Zaregistrovať príchod hneď (osoba je tu)').isChecked()).toBe(false);
    await expectAccessible(page, 'walk-in form');

    // A malformed phone is told at its field before anything is sent.
    const person = newPerson('Mária Priamo');
    await time.selectOption(open.soon);
    await card.getByLabel('Meno a priezvisko').fill(person.name);
    await card.getByLabel('Telefón').fill('12');
    await card.getByLabel('Rodné číslo', { exact: true }).fill(person.nationalId);
    await card.getByRole('button', { name: 'Objednať' }).click();
    await expect.poll(() => card.getByRole('alert').textContent()).toBe('Skontrolujte vyznačené polia.');
    const phone = card.getByLabel('Telefón');
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    expect(await card.locator('.field-invalid .error').allTextContents()).toEqual(['Toto nie je telefónne číslo. Použite 0905 123 456 alebo +421 905 123 456.']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('phone');
    await expectAccessible(page, 'walk-in form with an error');

    // Booked and checked in at once: the code to hand over, the SMS, and the roster showing the person arrived.
    await phone.fill(person.phone);
    await card.getByLabel('Zaregistrovať príchod hneď (osoba je tu)').check();
    await card.getByRole('button', { name: 'Objednať' }).click();
    const done = card.getByTestId('walk-in-done');
    await expect.poll(() => done.getByTestId('walk-in-code').textContent()).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    const code = (await done.getByTestId('walk-in-code').textContent())!;
    expect(await done.getByTestId('walk-in-check-in').textContent()).toBe('Príchod zaregistrovaný.');
    expect(await done.getByTestId('walk-in-sms').textContent()).toBe('Potvrdzujúca SMS bola odoslaná.');
    expect(await done.textContent()).toContain(`o ${open.soon} (10 min), ${person.name}`);
    const row = page.locator(`tr[data-code="${code}"]`);
    await expect.poll(() => row.getAttribute('data-state')).toBe('checked-in');
    expect(await row.textContent()).toContain('nurse-2');
    await expect.poll(() => time.locator(`option[value="${open.soon}"]`).textContent()).toBe(`${open.soon} (voľné: 4)`);
    expect(await card.getByLabel('Meno a priezvisko').inputValue()).toBe('');
    await expectAccessible(page, 'walk-in booked');
    await screenshot(page, '19-staff-walk-in');
    await expect.poll(() => sentSms(smsFile).filter((sms) => sms.text.includes(code)).length, { timeout: 20_000 }).toBe(1);

    // The same person again, another time: one booking per person and service, the first one's code named.
    await time.selectOption(open.later);
    await card.getByLabel('Meno a priezvisko').fill(person.name);
    await card.getByLabel('Telefón').fill(person.phone);
    await card.getByLabel('Rodné číslo', { exact: true }).fill(person.nationalId);
    await card.getByRole('button', { name: 'Objednať' }).click();
    await expect.poll(() => card.getByRole('alert').textContent()).toBe(`Na tieto údaje už existuje rezervácia s kódom ${code}.`);
    expect(await done.count()).toBe(0);
    await expect.poll(() => page.getByTestId('count-booked').locator('dd').textContent()).toBe('0');
    expect(await page.getByTestId('count-checked-in').locator('dd').textContent()).toBe('1');

    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => card.getByRole('heading').first().textContent()).toBe('Book at the door / by phone');
    expect(await card.getByLabel('Check in now (the person is here)').count()).toBe(1);
    expect(await card.getByRole('alert').count()).toBe(1);
    await expectAccessible(page, 'walk-in form in English');
    await page.getByRole('button', { name: 'Slovensky' }).click();
  });
});
