import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Place } from '../src/api/types';
import { formatDay } from '../src/booking/dates';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { chooseSlot, fillPerson, newPerson } from './steps';

// A vaccination opened by age, through the served page: a person too young for the steps already open
// is told it is not their turn yet and on which day their group opens; an older person books. The rule
// is set through the admin API and judged by the API in the seat's own database operation.
const appUrl = inject('appUrl');
const apiUrl = inject('apiUrl');
const adminKey = { 'X-Api-Key': 'dev-admin-key-0000' }; // appsettings.Development.json

async function send<T>(method: string, url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method, headers: { ...adminKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

let serial = 0;
/** A valid 10-digit Slovak birth number (men's months, mod-11 check digit) of someone born on the day. */
function birthNumber(born: string): string {
  const [y, m, d] = born.split('-');
  for (;;) {
    serial += 1;
    const first = `${y.slice(2)}${m}${d}${String(serial % 1000).padStart(3, '0')}`;
    const check = Number(BigInt(first) % 11n);
    if (check !== 10) return `${first}${check}`;
  }
}

describe('a service opened by age', () => {
  let browser: Browser;
  let place: Place;
  const code = `vaccine-${Date.now().toString(36)}`;
  const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const opens = new Date(Date.now() + 10 * 86_400_000);

  beforeAll(async () => {
    place = await send<Place>('POST', `${apiUrl}/api/admin/places`,
      { name: 'Očkovacie centrum Vek', address: 'Testovacia 4, Bratislava', region: 'Bratislavský kraj', timeZone: 'Europe/Bratislava' });
    await send('POST', `${apiUrl}/api/admin/services`, { code, nameSk: 'Očkovanie', nameEn: 'Vaccination' });
    await send('PUT', `${apiUrl}/api/admin/services/${code}/eligibility`, {
      rule: 'age',
      steps: [
        { opensAt: new Date(Date.now() - 3_600_000).toISOString(), bornOnOrBefore: '1960-12-31' },
        { opensAt: opens.toISOString(), bornOnOrBefore: '1995-12-31' },
      ],
    });
    await send('PUT', `${apiUrl}/api/admin/places/${place.id}/services/${code}`, {
      seats: 2, template: { firstStart: '08:00', lastStart: '08:30', intervalMinutes: 30, lengthMinutes: 15 },
    });
    await send('PUT', `${apiUrl}/api/admin/places/${place.id}/services/default`, { active: false });
    await send('POST', `${apiUrl}/api/admin/slots/generate`, { placeIds: [place.id], from: day, to: day, service: code });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('tells a person too young the day their group opens, and books an older one', async () => {
    const { page } = browser;
    await page.goto(`${appUrl}/#/place/${place.id}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte termín');
    await chooseSlot(page, day, '08:00');
    await fillPerson(page, { ...newPerson('Mladý Testovací'), nationalId: birthNumber('1985-06-15') });
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/reservations') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    const problem = (await (await refused).json()) as { code: string; opensOn?: string };
    expect(problem.code).toBe('not-eligible');
    const opensOn = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bratislava' }).format(opens);
    expect(problem.opensOn).toBe(opensOn);
    await expect.poll(() => page.getByRole('alert').textContent())
      .toBe(`Na túto službu ešte nie ste na rade: otvára sa podľa veku, od najstarších. Vaša veková skupina si môže rezervovať od: ${formatDay(opensOn, 'sk', true)}.`);
    await expectAccessible(page, 'not your turn');
    await screenshot(page, '15-not-your-turn');

    await fillPerson(page, { ...newPerson('Starší Testovací'), nationalId: birthNumber('1955-03-10') });
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');
  });
});
