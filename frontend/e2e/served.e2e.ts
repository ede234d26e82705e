import { describe, expect, inject, it } from 'vitest';

const appUrl = inject('appUrl');

// Regression: the API answered every asset with index.html (200 text/html), so the page was blank.
describe('the page as the API serves it', () => {
  it('serves its module script as JavaScript, cached for good, and the index revalidated', async () => {
    const index = await fetch(`${appUrl}/`);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
    const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const [src, type] of [...scripts.map((s) => [s, 'text/javascript']), ...styles.map((s) => [s, 'text/css'])]) {
      const asset = await fetch(new URL(src, `${appUrl}/`));
      expect(asset.status, src).toBe(200);
      expect(asset.headers.get('content-type'), src).toMatch(new RegExp(`^${type}`));
      expect(asset.headers.get('cache-control'), src).toContain('immutable');
    }
  });

  it('answers a deep link with the page and an unknown API path with a problem', async () => {
    const deep = await fetch(`${appUrl}/manage`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<div id="root">');
    const unknown = await fetch(`${appUrl}/api/nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
