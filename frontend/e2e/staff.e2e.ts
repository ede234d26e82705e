import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Availability } from '../src/api/types';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { adminKey, type OpenNow, placeOpenNow, sentSms, signIn, skipOrFail } from './door';
import { writeQrVideo } from './fakeCamera';
import { type RunningApi, startApiWithProvider } from './stack';
import { chooseSlot, choosePlace, fillPerson, getJson, newPerson } from './steps';

// The door, signed in through a real OpenID provider (tools/oidc-test-provider, another origin): the SPA
// built with that provider's address, an API that trusts it, and a place whose day is at noon now, so
// a slot a quarter of an hour away can be booked and checked in (the door takes ±60 min of the start).
inject('apiUrl'); // the shared stack has built the API this file starts again

/** HH:mm the given minutes later (the place's day is at noon: no test time runs past midnight). */
function minutesAfter(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number);
  const total = h * 60 + m + minutes;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** Free seats of the slot; 0 where the availability leaves it out (closed by a block). */
async function freeAt(apiUrl: string, placeId: number, day: string, time: string): Promise<number> {
  const availability = await getJson<Availability>(`${apiUrl}/api/places/${placeId}/availability?from=${day}&to=${day}`);
  return availability.days[0]?.slots.find((s) => s.time === time)?.free ?? 0;
}

describe('staff at the door', () => {
  const stopping: { stop: () => Promise<void> | void }[] = [];
  let api: RunningApi;
  let issuer: string;
  let open: OpenNow;
  // This API's SMS go to a file of the test's own, read to see what each person got.
  const smsDir = mkdtempSync(join(tmpdir(), 'slots-e2e-sms-'));
  const smsFile = join(smsDir, 'sms.jsonl');
  let browser: Browser;
  let code = '';
  // The provider is another origin: its discovery document and token endpoint are fetched by the page,
  // which the API's Content-Security-Policy must allow (connect-src). Until the API names the
  // provider there, sign-in cannot work and these tests are skipped, saying so (under CI they fail).
  let blockedBy: string | null = null;

  beforeAll(async () => {
    const stack = await startApiWithProvider('staff', async (started) => {
      open = await placeOpenNow(started.url);
      const places = [String(open.place.id)];
      return [
        { sub: 'nurse-1', roles: ['site-staff'], places },
        { sub: 'manager-1', roles: ['site-manager'], places },
      ];
    }, { Slots__Sms__File__Path: smsFile });
    stopping.push(stack);
    ({ api, issuer } = stack);
    const policy = (await fetch(`${api.url}/`)).headers.get('content-security-policy') ?? '';
    const connect = /connect-src([^;]*)/.exec(policy)?.[1].trim().split(/\s+/) ?? [];
    if (!connect.includes(issuer)) blockedBy = `the API's Content-Security-Policy has no "connect-src 'self' ${issuer}": ${policy}`;
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const s of stopping.reverse()) await s.stop();
    rmSync(smsDir, { recursive: true, force: true });
  });

  it('signs in through the provider, keeping the token for the tab only', async (ctx) => {
    if (blockedBy) return skipOrFail(ctx, blockedBy);
    const { page } = browser;
    await page.goto(`${api.url}/#/staff`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Príjem na mieste');
    expect(await page.getByText('Vývojový token').count()).toBe(0);
    await expectAccessible(page, 'staff sign-in');
    await signIn(page, api.url, issuer, 'nurse-1');
    expect(page.url()).toBe(`${api.url}/#/staff`);
    const kept = await page.evaluate(() => sessionStorage.getItem('slots.staffToken'));
    expect(JSON.parse(kept ?? '{}').source).toBe('sign-in');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(JSON.parse(kept!).token);
    await expect.poll(() => page.locator('h2.place-title').textContent()).toBe(`Miesto č. ${open.place.id}`);
    await expect.poll(() => page.getByTestId('count-booked').locator('dd').textContent()).toBe('0');
  });

  it('sees a citizen\'s booking appear on the roster and checks it in by its code', async (ctx) => {
    if (blockedBy) return skipOrFail(ctx, blockedBy);
    const { page, context } = browser;
    const citizen = await context.newPage();
    await citizen.goto(api.url);
    await choosePlace(citizen, open.place);
    await chooseSlot(citizen, open.day, open.soon);
    await fillPerson(citizen, newPerson('Eva Dverová'));
    await citizen.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    await expect.poll(() => citizen.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
    code = (await citizen.getByTestId('code').textContent()) ?? '';
    await expect.poll(() => citizen.getByRole('img', { name: `QR kód rezervácie ${code}` }).count()).toBe(1);
    await citizen.close();

    // The roster reads itself again every 10 s: the booking shows up without a reload.
    const row = page.locator(`tr[data-code="${code}"]`);
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('booked');
    expect(await row.textContent()).toContain('Eva Dverová');

    const door = page.locator('section.card', { has: page.getByRole('heading', { name: 'Registrácia príchodu' }) });
    await door.getByLabel('Kód rezervácie').fill(code.toLowerCase());
    await door.getByRole('button', { name: 'Zaregistrovať príchod' }).click();
    await expect.poll(() => door.getByRole('status').textContent()).toMatch(new RegExp(`^Eva Dverová \\(${open.soon}\\): príchod zaregistrovaný o \\d\\d:\\d\\d, nurse-1\\.$`));
    await expect.poll(() => row.getAttribute('data-state')).toBe('checked-in');
    await expect.poll(() => page.getByTestId('count-checked-in').locator('dd').textContent()).toBe('1');
    await expectAccessible(page, 'staff desk');
    await screenshot(page, '10-staff-desk');

    await door.getByLabel('Kód rezervácie').fill(code);
    await door.getByRole('button', { name: 'Zaregistrovať príchod' }).click();
    await expect.poll(() => door.getByRole('status').textContent()).toContain('príchod už bol zaregistrovaný o');

    await door.getByLabel('Kód rezervácie').fill('AAAAA-BBBBB');
    await door.getByRole('button', { name: 'Zaregistrovať príchod' }).click();
    await expect.poll(() => door.getByRole('alert').textContent()).toBe('Rezervácia s týmto kódom neexistuje.');

    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Front desk');
    expect(await page.getByRole('button', { name: 'Download CSV' }).count()).toBe(0);
    await expectAccessible(page, 'staff desk in English');
    await page.getByRole('button', { name: 'Slovensky' }).click();
  });

  it('lets a site manager read the audit trail and export the roster', async (ctx) => {
    if (blockedBy) return skipOrFail(ctx, blockedBy);
    const manager = await openBrowser();
    try {
      const { page } = manager;
      await signIn(page, api.url, issuer, 'manager-1');
      const audit = page.locator('section.card', { has: page.getByRole('heading', { name: 'Záznam činností' }) });
      await expect.poll(() => audit.locator('tbody tr td:first-of-type').allTextContents()).toContain('nurse-1');
      await expectAccessible(page, 'staff desk of a manager');

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Stiahnuť CSV' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`roster-${open.place.id}-${open.day}.csv`);
      expect(readFileSync((await file.path())!, 'utf8')).toContain(code);

      await page.getByRole('button', { name: 'English' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Audit trail' }).count()).toBe(1);
      await expectAccessible(page, 'staff desk of a manager in English');
      await screenshot(page, '11-staff-audit');
    } finally {
      await manager.close();
    }
  });

  it('lets a site manager cancel a block: each booked person gets one SMS, the checked-in one is kept', async (ctx) => {
    if (blockedBy) return skipOrFail(ctx, blockedBy);
    const citizen = await openBrowser();
    let cancelled = '';
    try {
      const { page } = citizen;
      await page.goto(api.url);
      await choosePlace(page, open.place);
      await chooseSlot(page, open.day, open.later);
      await fillPerson(page, newPerson('Peter Blokový'));
      await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
      cancelled = (await page.getByTestId('code').textContent()) ?? '';
    } finally {
      await citizen.close();
    }

    const manager = await openBrowser();
    try {
      const { page } = manager;
      await signIn(page, api.url, issuer, 'manager-1');
      const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Zrušiť termíny' }) });
      // [soon, later + 10 min): both bookings; the roster's "to" takes starts up to it, the block's stops before.
      const reason = 'Výpadok elektriny';
      await card.getByLabel('Deň', { exact: true }).fill(open.day);
      await card.getByLabel('Od (nepovinné)').fill(open.soon);
      await card.getByLabel('Do (nepovinné)').fill(minutesAfter(open.later, 10));
      await card.getByRole('button', { name: 'Pokračovať' }).click();
      await expect.poll(() => card.getByRole('alert').textContent()).toBe('Skontrolujte vyznačené polia.');
      expect(await card.locator('.error').textContent()).toBe('Zadajte dôvod (najviac 100 znakov).');
      await card.getByLabel(/^Dôvod/).fill(reason);
      expect(await card.getByText(`${reason.length} zo 100 znakov`).count()).toBe(1);
      await card.getByRole('button', { name: 'Pokračovať' }).click();

      const confirm = card.getByTestId('block-confirm');
      await expect.poll(() => confirm.locator('#block-question').textContent()).toBe('Zrušiť 1 rezerváciu a poslať 1 SMS?');
      expect(await confirm.textContent()).toContain(`${open.soon} – ${minutesAfter(open.later, 10)}: „${reason}“`);
      await expectAccessible(page, 'block cancel confirmation');
      await screenshot(page, 'staff-block-cancel');

      await confirm.getByRole('button', { name: 'Áno, zrušiť' }).click();
      await expect.poll(() => card.getByRole('status').textContent()).toBe('Zrušené: 1, ponechané: 1 (už prišli).');
      await expect.poll(() => page.locator(`tr[data-code="${cancelled}"]`).getAttribute('data-state')).toBe('cancelled-by-site');
      expect(await page.locator(`tr[data-code="${cancelled}"]`).textContent()).toContain('zrušené miestom');
      expect(await page.locator(`tr[data-code="${code}"]`).getAttribute('data-state')).toBe('checked-in');
      await expect.poll(() => page.locator('table.audit tr[data-action="block-cancel"]').count()).toBe(1);
      expect(await page.locator('table.audit tr[data-action="block-cancel"]').textContent()).toContain(reason);
      await expectAccessible(page, 'block cancelled');

      // The outbox relay sends within a few seconds: one SMS to the cancelled booking, naming the reason and where to book again.
      const toCancelled = () => sentSms(smsFile).filter((sms) => sms.text.includes(cancelled) && sms.text.includes(reason));
      await expect.poll(() => toCancelled().length, { timeout: 20_000 }).toBe(1);
      expect(toCancelled()[0].text).toContain(`#/place/${open.place.id}`);
      expect(sentSms(smsFile).filter((sms) => sms.text.includes(code) && sms.text.includes(reason))).toEqual([]);

      // The block stands in the card's list; opened again, its times take bookings and the cancelled booking stays cancelled.
      const standing = card.getByTestId('standing-block');
      await expect.poll(() => standing.count()).toBe(1);
      expect(await standing.textContent()).toContain(reason);
      expect(await freeAt(api.url, open.place.id, open.day, open.later)).toBe(0);
      await standing.getByRole('button', { name: 'Otvoriť znova' }).click();
      await expect.poll(() => card.locator('.standing-blocks').getByRole('status').textContent()).toContain('sú znova otvorené na rezerváciu');
      expect(await standing.count()).toBe(0);
      await expect.poll(() => page.locator('table.audit tr[data-action="block-reopened"]').count()).toBe(1);
      expect(await page.locator(`tr[data-code="${cancelled}"]`).getAttribute('data-state')).toBe('cancelled-by-site');
      // The cancelled booking's seat is free again with the others (capacity 5).
      await expect.poll(() => freeAt(api.url, open.place.id, open.day, open.later)).toBe(5);
      await expectAccessible(page, 'block opened again');
      await screenshot(page, 'staff-block-reopen');
    } finally {
      await manager.close();
    }
  });

  it('checks a booking in from its QR code through the camera', async (ctx) => {
    if (blockedBy) return skipOrFail(ctx, blockedBy);
    // A slot of its own, five minutes before the first: outside the block cancelled above, and in time for the door.
    const time = minutesAfter(open.soon, -5);
    const post = async <T,>(path: string, body: object, headers: Record<string, string> = {}): Promise<T> => {
      const response = await fetch(`${api.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    await post('/api/admin/slots/generate', {
      placeIds: [open.place.id], from: open.day, to: open.day,
      template: { firstStart: time, lastStart: time, intervalMinutes: 5, lengthMinutes: 5 }, capacity: 1,
    }, adminKey);
    const person = newPerson('Ján Skenovaný');
    const { code: scanned } = await post<{ code: string }>('/api/reservations',
      { placeId: open.place.id, day: open.day, time, ...person, language: 'sk' }, { 'Idempotency-Key': crypto.randomUUID() });

    // Chromium's fake camera plays the booking's QR code (the picture the citizen shows at the door) on a loop.
    const video = join(smsDir, 'qr.y4m');
    writeQrVideo(video, scanned);
    const camera = await openBrowser(undefined,
      ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`]);
    try {
      const { page } = camera;
      await signIn(page, api.url, issuer, 'nurse-1');
      const door = page.locator('section.card', { has: page.getByRole('heading', { name: 'Registrácia príchodu' }) });
      await door.getByRole('button', { name: 'Skenovať QR kód' }).click();
      await expect.poll(() => door.locator('.notice').textContent(), { timeout: 20_000 })
        .toMatch(new RegExp(`^Ján Skenovaný \\(${time}\\): príchod zaregistrovaný o \\d\\d:\\d\\d, nurse-1\\.$`));
      await expect.poll(() => page.locator(`tr[data-code="${scanned}"]`).getAttribute('data-state')).toBe('checked-in');
      expect(await door.getByLabel('Obraz z kamery na skenovanie QR kódu').count()).toBe(0);
      expect(await door.getByRole('button', { name: 'Skenovať QR kód' }).getAttribute('aria-expanded')).toBe('false');
    } finally {
      await camera.close();
    }
  });
});
