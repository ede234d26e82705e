import { describe, expect, it } from 'vitest';
import { firstPlacesPath } from './firstPlaces';
import { ApiError } from './http';
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

describe('a two-dose booking', () => {
  it('sends the second dose\'s day and time where the person chose them, and reads both appointments back', async () => {
    const pair = { code: 'ABCDE-FGHJK', placeId: 1, placeName: 'P', address: 'A', day: '2030-01-02', time: '08:00', minutes: 15, name: 'Jana',
      state: 'booked', service: 'vaccine', secondDose: { day: '2030-01-30', time: '08:00', minutes: 15 } };
    const { seen, fetchFn } = scripted([() => new Response(JSON.stringify(pair), { status: 201 })]);
    const outcome = await new SlotsApi('', fetchFn)
      .reserve({ ...booking, service: 'vaccine', secondDay: '2030-01-30', secondTime: '08:00' }, 'pair-key', { clock: instantClock });
    expect(JSON.parse(seen[0].body)).toMatchObject({ service: 'vaccine', secondDay: '2030-01-30', secondTime: '08:00' });
    expect(outcome).toMatchObject({ kind: 'done', value: { secondDose: { day: '2030-01-30', time: '08:00' } } });
  });

  it('moves the second dose with dose 2 in the body and the proof in a header', async () => {
    const seen: { url: string; body: string; headers: Headers }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      seen.push({ url, body: String(init.body), headers: new Headers(init.headers) });
      return new Response(JSON.stringify({ code: 'ABCDE-FGHJK' }), { status: 200 });
    }) as typeof fetch;
    await new SlotsApi('', fetchFn).reschedule('ABCDE-FGHJK', { kind: 'phone', value: '0905123456' },
      { placeId: 1, day: '2030-02-01', time: '09:30', dose: 2 }, { clock: instantClock });
    expect(seen[0].url).toBe('/api/reservations/ABCDE-FGHJK/reschedule');
    expect(JSON.parse(seen[0].body)).toEqual({ placeId: 1, day: '2030-02-01', time: '09:30', dose: 2 });
    expect(seen[0].headers.get('Slots-Phone')).toBe('0905123456');
    expect(seen[0].url).not.toContain('0905123456');
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

describe('the waiting list', () => {
  const token = '0123456789abcdef0123456789abcdef';
  const entry = { token: null, placeId: 7, from: '2030-01-02', to: '2030-01-08', state: 'waiting', position: 2, offer: null, bookedCode: null };

  function recording(answer: () => Response) {
    const seen: { url: string; method: string; headers: Headers; body: string | undefined }[] = [];
    const fetchFn = (async (url: string, init: RequestInit = {}) => {
      seen.push({ url, method: init.method ?? 'GET', headers: new Headers(init.headers), body: init.body === undefined ? undefined : String(init.body) });
      return answer();
    }) as typeof fetch;
    return { seen, api: new SlotsApi('http://api.test/', fetchFn) };
  }

  const problem = (status: number, code: string, extra: object = {}) => () =>
    new Response(JSON.stringify({ status, code, title: code, ...extra }), { status, headers: { 'Content-Type': 'application/problem+json' } });

  it('joins with the days and the person in the body', async () => {
    const { seen, api } = recording(() => new Response(JSON.stringify({ ...entry, token, position: 1 }), { status: 201 }));
    const join = { placeId: 7, from: '2030-01-02', to: '2030-01-08', name: 'Jana', phone: '0905 123 456', nationalId: '9001011234', language: 'en' as const };
    expect(await api.joinWaitingList(join)).toMatchObject({ token, position: 1, state: 'waiting' });
    expect(seen[0]).toMatchObject({ url: 'http://api.test/api/waiting-list', method: 'POST' });
    expect(seen[0].headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(seen[0].body!)).toEqual(join);
  });

  it('throws the join\'s refusal with its code and position', async () => {
    const { api } = recording(problem(409, 'waiting-list-joined', { position: 3 }));
    const error = await api.joinWaitingList({ placeId: 7, from: 'a', to: 'b', name: 'n', phone: 'p', nationalId: 'i', language: 'sk' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('waiting-list-joined');
    expect((error as ApiError).problem).toMatchObject({ status: 409, position: 3 });
  });

  it('sends the token in its header, never in the URL', async () => {
    const { seen, api } = recording(() => new Response(JSON.stringify(entry), { status: 200 }));
    const answer = await api.waitingListEntry(token);
    expect(answer.entry).toEqual(entry);
    expect(seen[0].url).toBe('http://api.test/api/waiting-list/entry');
    expect(seen[0].url).not.toContain(token);
    expect(seen[0].headers.get('Slots-Waiting-List-Token')).toBe(token);
  });

  it('reads how far the server\'s clock is ahead from its Date header', async () => {
    const ahead = new Date(Date.now() + 60_000).toUTCString();
    const { api } = recording(() => new Response(JSON.stringify(entry), { status: 200, headers: { Date: ahead } }));
    const { serverAheadMs } = await api.waitingListEntry(token);
    expect(serverAheadMs).toBeGreaterThan(58_000);
    expect(serverAheadMs).toBeLessThan(61_000);
    const { api: same } = recording(() => new Response(JSON.stringify(entry), { status: 200, headers: { Date: new Date().toUTCString() } }));
    expect((await same.waitingListEntry(token)).serverAheadMs).toBe(0);
  });

  it('throws for an unknown token', async () => {
    const { api } = recording(problem(404, 'waiting-list-entry-not-found'));
    await expect(api.waitingListEntry(token)).rejects.toMatchObject({ code: 'waiting-list-entry-not-found' });
  });

  it('leaves with DELETE and the token in its header', async () => {
    const { seen, api } = recording(() => new Response(null, { status: 204 }));
    await api.leaveWaitingList(token);
    expect(seen[0]).toMatchObject({ url: 'http://api.test/api/waiting-list/entry', method: 'DELETE' });
    expect(seen[0].headers.get('Slots-Waiting-List-Token')).toBe(token);
  });

  it('claims the held seat and answers the booking', async () => {
    const booking = { code: 'ABCDE-FGHJK', placeId: 7, placeName: 'P', address: 'A', day: '2030-01-03', time: '09:00', minutes: 15, name: 'Jana', state: 'active' };
    const { seen, api } = recording(() => new Response(JSON.stringify(booking), { status: 201 }));
    expect(await api.claimOffer(token)).toEqual(booking);
    expect(seen[0]).toMatchObject({ url: 'http://api.test/api/waiting-list/entry/claim', method: 'POST' });
    expect(seen[0].headers.get('Slots-Waiting-List-Token')).toBe(token);
  });

  it('throws an expired offer\'s refusal', async () => {
    const { api } = recording(problem(410, 'offer-expired'));
    await expect(api.claimOffer(token)).rejects.toMatchObject({ code: 'offer-expired', problem: { status: 410 } });
    const { api: gone } = recording(problem(409, 'offer-not-found'));
    await expect(gone.leaveWaitingList(token)).rejects.toMatchObject({ code: 'offer-not-found' });
  });
});
