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

  it('sends the page with its security headers', async () => {
    const index = await fetch(`${appUrl}/`);
    const policy = index.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(index.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('sends the script compressed at build time to a browser that accepts it, plain to one that does not', async () => {
    const html = await (await fetch(`${appUrl}/`)).text();
    const script = new URL(/<script[^>]+src="([^"]+)"/.exec(html)![1], `${appUrl}/`);
    const plain = await fetch(script, { headers: { 'Accept-Encoding': 'identity' } });
    const size = (await plain.arrayBuffer()).byteLength;
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    for (const [accepted, sent] of [['gzip, deflate, br, zstd', 'br'], ['gzip', 'gzip']]) {
      const packed = await fetch(script, { headers: { 'Accept-Encoding': accepted } });
      expect(packed.headers.get('content-encoding'), accepted).toBe(sent);
      expect(packed.headers.get('content-type'), accepted).toMatch(/^text\/javascript/);
      expect(packed.headers.get('vary'), accepted).toBe('Accept-Encoding');
      expect(Number(packed.headers.get('content-length')), accepted).toBeLessThan(size / 2);
    }
  });
});
