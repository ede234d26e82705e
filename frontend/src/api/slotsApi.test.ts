import { describe, expect, it } from 'vitest';
import { firstPlacesPath } from './firstPlaces';
import type { Clock } from './retry';
import { type Booking, SlotsApi } from './slotsApi';

const booking: Booking = {
  placeId: 1, day: '2030-01-02', time: '08:00', name: 'Jana', phone: '0905 123 456', nationalId: '9001011234', language: 'sk',
};

const instantClock: Clock = { now: () => 0, random: () => 0, sleep: async () => {} };

function scripted(answers: (() => Response)[]) {
  const seen: { key: string | null; body: string }[] = [];
  const fetchFn = (async (_url: string, init: RequestInit) => {
    seen.push({ key: new Headers(init.headers).get('Idempotency-Key'), body: String(init.body) });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  }) as typeof fetch;
  return { seen, fetchFn };
}

const busy = (status: number) => () => new Response('{}', { status, headers: { 'Retry-After': '2' } });
const lost = () => {
  throw new TypeError('Failed to fetch');
};
const created = () =>
  new Response(JSON.stringify({ code: 'ABCDE-FGHJK', placeId: 1, placeName: 'P', address: 'A', day: '2030-01-02', time: '08:00' }), {
    status: 201, headers: { 'Idempotent-Replayed': 'true' },
  });

describe('SlotsApi.reserve', () => {
  it('reuses the same Idempotency-Key and body on every retry', async () => {
    const { seen, fetchFn } = scripted([busy(429), lost, busy(503), created]);
    const outcome = await new SlotsApi('', fetchFn).reserve(booking, 'attempt-key-1', { clock: instantClock });
    expect(outcome).toMatchObject({ kind: 'done', replayed: true, value: { code: 'ABCDE-FGHJK' } });
    expect(new Set(seen.map((s) => s.key))).toEqual(new Set(['attempt-key-1']));
    expect(new Set(seen.map((s) => s.body)).size).toBe(1);
    expect(seen).toHaveLength(4);
  });

  it('returns a refusal as a problem with its alternatives', async () => {
    const full = () => new Response(JSON.stringify({ code: 'slot-full', alternatives: [{ placeId: 1, day: '2030-01-02', time: '08:15', free: 2 }] }), { status: 409 });
    const { fetchFn } = scripted([full]);
    const outcome = await new SlotsApi('', fetchFn).reserve(booking, 'attempt-key-2', { clock: instantClock });
    expect(outcome).toMatchObject({ kind: 'problem', problem: { status: 409, code: 'slot-full', alternatives: [{ time: '08:15' }] } });
  });
});

describe('SlotsApi.cancel', () => {
  it('does not resend a cancellation whose answer was lost', async () => {
    const { seen, fetchFn } = scripted([lost, () => new Response(null, { status: 204 })]);
    const outcome = await new SlotsApi('', fetchFn).cancel('ABCDE-FGHJK', { kind: 'phone', value: '0905123456' }, { clock: instantClock });
    expect(outcome).toEqual({ kind: 'gave-up', reason: 'offline' });
    expect(seen).toHaveLength(1);
  });
});

describe('the first places read', () => {
  it('asks for exactly the request index.html preloads', async () => {
    const urls: string[] = [];
    const fetchFn = (async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify({ items: [], total: 0, page: 1, pageSize: 20 }));
    }) as typeof fetch;
    await new SlotsApi('', fetchFn).places('', '', 1);
    expect(urls).toEqual([firstPlacesPath]);
  });
});
