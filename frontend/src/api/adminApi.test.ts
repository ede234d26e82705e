import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminApi } from './adminApi';

function answering(body: unknown) {
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AdminApi and services', () => {
  const admin = new AdminApi('https://slots.example/', 'token-1');

  it('asks for one service\'s statistics, or every service\'s', async () => {
    const calls = answering({ from: '2030-01-07', to: '2030-01-08', days: [] });
    await admin.stats('2030-01-07', '2030-01-08', 'pcr-2');
    await admin.stats('2030-01-07', '2030-01-08');
    expect(calls.map((c) => c.url)).toEqual([
      'https://slots.example/api/admin/stats?from=2030-01-07&to=2030-01-08&service=pcr-2',
      'https://slots.example/api/admin/stats?from=2030-01-07&to=2030-01-08',
    ]);
    expect(new Headers(calls[0].init?.headers).get('Authorization')).toBe('Bearer token-1');
  });

  it('offers a service at a place with PUT, the offer as the body', async () => {
    const calls = answering({ placeId: 12, service: 'pcr', active: true });
    await admin.offerService(12, 'pcr', { seats: 2, active: true });
    expect(calls[0].url).toBe('https://slots.example/api/admin/places/12/services/pcr');
    expect(calls[0].init?.method).toBe('PUT');
    expect(calls[0].init?.body).toBe('{"seats":2,"active":true}');
    expect(new Headers(calls[0].init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('creates with POST and changes with PUT under the code', async () => {
    const calls = answering({ code: 'pcr', nameSk: 'PCR', nameEn: 'PCR', active: false });
    await admin.createService({ code: 'pcr', nameSk: 'PCR', nameEn: 'PCR', active: true });
    await admin.editService('pcr', { nameSk: 'PCR', nameEn: 'PCR', active: false });
    expect(calls.map((c) => `${c.init?.method} ${c.url}`)).toEqual([
      'POST https://slots.example/api/admin/services',
      'PUT https://slots.example/api/admin/services/pcr',
    ]);
  });

  it('reads the whole catalogue and a place\'s offers as stored now, with the credentials', async () => {
    const calls = answering([]);
    await admin.services();
    await admin.offers(12);
    expect(calls.map((c) => c.url)).toEqual(['https://slots.example/api/admin/services', 'https://slots.example/api/admin/places/12/services']);
    expect(calls.map((c) => c.init?.cache)).toEqual(['no-store', 'no-store']);
    expect(calls.every((c) => new Headers(c.init?.headers).has('Authorization') || new Headers(c.init?.headers).has('X-Api-Key'))).toBe(true);
  });
});

describe('AdminApi and invitation codes', () => {
  const admin = new AdminApi('https://slots.example/', 'token-1');

  it('keeps the issued CSV byte for byte, its byte-order mark too, with the name the API gives it', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('code,service,batch,label\r\nABCD-EFGH-JKMN,vaccine,3,Učitelia\r\n')]);
    const calls: { url: string; init?: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return new Response(bytes, { status: 201, headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename=invitations-vaccine-3.csv' } });
    });
    const issued = await admin.issueInvitations('vaccine', { label: 'Učitelia', size: 1 });
    expect(`${calls[0].init?.method} ${calls[0].url}`).toBe('POST https://slots.example/api/admin/services/vaccine/invitations');
    expect(calls[0].init?.body).toBe('{"label":"Učitelia","size":1}');
    expect(new Uint8Array(await issued.csv.arrayBuffer())).toEqual(bytes);
    expect(issued.disposition).toBe('attachment; filename=invitations-vaccine-3.csv');
  });

  it('throws the API\'s problem when it issues nothing', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ status: 409, code: 'invitations-off' }), {
      status: 409, headers: { 'Content-Type': 'application/problem+json' },
    }));
    await expect(admin.issueInvitations('vaccine', { label: 'x', size: 1 })).rejects.toMatchObject({ code: 'invitations-off' });
  });

  it('lists a service\'s batches and revokes one by its id', async () => {
    const calls = answering([]);
    await admin.invitationBatches('vaccine');
    await admin.revokeInvitations(7);
    expect(calls.map((c) => `${c.init?.method ?? 'GET'} ${c.url}`)).toEqual([
      'GET https://slots.example/api/admin/invitations?service=vaccine',
      'POST https://slots.example/api/admin/invitations/7/revoke',
    ]);
  });
});
