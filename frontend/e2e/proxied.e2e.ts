import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, openBrowser } from './browser';
import { choosePlace, chooseSlot, fillPerson, freeSeats, freeSlotTomorrow, newPerson, somePlace } from './steps';

const proxyUrl = inject('proxyUrl');
const statsUrl = inject('proxyStatsUrl');
const apiUrl = inject('apiUrl');
const proxySpki = inject('proxySpki');

/** Responses HAProxy's frontend has answered with the given class (2xx, 4xx...), from its own exporter. */
async function proxied(codeClass: string): Promise<number> {
  const text = await (await fetch(`${statsUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('haproxy_frontend_http_responses_total{') && l.includes('proxy="slots"') && l.includes(`code="${codeClass}"`));
  return Number(line?.split(' ').at(-1) ?? 0);
}

describe('the production path: the page and a booking through HAProxy', () => {
  let browser: Browser;

  beforeAll(async () => {
    // HTTPS through HAProxy: the browser trusts the local certificate's key only.
    browser = await openBrowser(undefined, [`--ignore-certificate-errors-spki-list=${proxySpki}`]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('loads the page and books a seat through the proxy, as people do on the stack', async () => {
    const { page } = browser;
    const place = await somePlace(apiUrl, 1);
    const slot = await freeSlotTomorrow(apiUrl, place.id);
    const answeredBefore = await proxied('2xx');
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && r.url().startsWith(`${proxyUrl}/api/reservations`)) statuses.push(r.status());
    });

    await page.goto(proxyUrl);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Vyberte miesto');
    await choosePlace(page, place);
    await chooseSlot(page, slot.day, slot.time);
    await fillPerson(page, newPerson('Peter Proxy'));
    await page.getByRole('button', { name: 'Potvrdiť rezerváciu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Rezervácia je potvrdená');

    const code = (await page.getByTestId('code').textContent()) ?? '';
    expect(code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
    expect(statuses).toEqual([201]);
    // The page, its assets and the API calls all went through HAProxy to the API behind it.
    expect(await proxied('2xx')).toBeGreaterThan(answeredBefore + 3);
    expect(await freeSeats(apiUrl, place.id, slot.day, slot.time)).toBe(slot.free - 1);
  });
});
