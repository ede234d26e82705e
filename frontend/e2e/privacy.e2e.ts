import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Browser, expectAccessible, openBrowser, screenshot } from './browser';
import { type RunningApi, startApi } from './stack';

const appUrl = inject('appUrl');

// The privacy page as the API serves it, stating the server's own retention setting and contact: an API
// configured with 45 days and a contact, and the shared one on the defaults (30 days, no contact).
describe('the privacy page', () => {
  let api: RunningApi;
  let browser: Browser;

  beforeAll(async () => {
    api = await startApi('privacy', {
      Slots__Retention__Days: '45',
      Slots__Privacy__Controller: 'Úrad verejného zdravotníctva',
      Slots__Privacy__ContactEmail: 'dpo@example.sk',
    });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('is linked from the footer and states the configured retention and contact, in Slovak and English', async () => {
    const { page } = browser;
    await page.goto(`${api.url}/`);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Ochrana osobných údajov' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Ochrana osobných údajov');
    expect(page.url()).toBe(`${api.url}/#/privacy`);
    await expect.poll(() => page.getByTestId('retention').textContent()).toContain('vymažeme 45 dní po termíne');
    expect(await page.getByText('kľúčovaný odtlačok (HMAC)').count()).toBe(1);
    expect(await page.getByTestId('contact').textContent()).toBe(
      'Prevádzkovateľ: Úrad verejného zdravotníctva. Otázky o vašich osobných údajoch a žiadosti podľa GDPR posielajte na adresu dpo@example.sk.');
    expect(await page.getByRole('link', { name: 'dpo@example.sk' }).getAttribute('href')).toBe('mailto:dpo@example.sk');
    await expectAccessible(page, 'privacy page');
    await screenshot(page, 'privacy');

    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Privacy');
    expect(await page.getByTestId('retention').textContent()).toContain('erased 45 days after the appointment');
    expect(await page.getByTestId('contact').textContent()).toBe(
      'Controller: Úrad verejného zdravotníctva. Questions about your personal data and GDPR requests go to dpo@example.sk.');
    await expectAccessible(page, 'privacy page in English');

    await page.getByRole('link', { name: 'Open My reservation' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('My reservation');
    await page.getByRole('button', { name: 'Slovensky' }).click();
  });

  it('states the default 30 days and no named contact where none is configured', async () => {
    const { page } = browser;
    await page.goto(`${appUrl}/#/privacy`);
    await expect.poll(() => page.getByTestId('retention').textContent()).toContain('vymažeme 30 dní po termíne');
    expect(await page.getByTestId('contact').textContent())
      .toBe('Otázky o vašich osobných údajoch a žiadosti podľa GDPR smerujte na prevádzkovateľa tejto služby.');
    await expectAccessible(page, 'privacy page without a contact');
  });
});
