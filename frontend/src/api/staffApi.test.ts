import { describe, expect, it } from 'vitest';
import type { Clock } from './retry';
import { rosterQuery, StaffApi } from './staffApi';

describe('the roster query', () => {
  it('is empty for the place\'s today, first page, no filters', () => {
    expect(rosterQuery({})).toBe('');
    expect(rosterQuery({ day: '', state: undefined, code: '  ', page: 1 })).toBe('');
  });

  it('names each filter, the code as printed on the ticket', () => {
    expect(rosterQuery({ day: '2026-03-02', from: '08:00', to: '10:30', state: 'checked-in', code: ' abcde-fghjk ', page: 3, pageSize: 25 }))
      .toBe('?day=2026-03-02&from=08%3A00&to=10%3A30&state=checked-in&code=ABCDE-FGHJK&page=3&pageSize=25');
  });
});

describe('a walk-in', () => {
  const request = {
    day: '2030-01-02', time: '08:00', name: 'Jana', phone: '0905 123 456', nationalId: '9001011234', language: 'sk' as const, sms: true, checkIn: true,
  };
  const instantClock: Clock = { now: () => 0, random: () => 0, sleep: async () => {} };

  it('is resent with the same key and body while the server is busy or the answer is lost', async () => {
    const seen: { url: string; key: string | null; auth: string | null; body: string }[] = [];
    const answers = [
      () => new Response('{}', { status: 503 }),
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => new Response(JSON.stringify({ reservation: { code: 'ABCDE-FGHJK' }, sms: true, checkIn: 'checked-in' }), {
        status: 201, headers: { 'Idempotent-Replayed': 'true' },
      }),
    ];
    const fetchFn = (async (url: string, init: RequestInit) => {
      const headers = new Headers(init.headers);
      seen.push({ url, key: headers.get('Idempotency-Key'), auth: headers.get('Authorization'), body: String(init.body) });
      return answers.shift()!();
    }) as typeof fetch;
    const outcome = await new StaffApi('https://slots.test/', 'token-1', fetchFn).walkIn(7, request, 'walk-in-key-1', { clock: instantClock });
    expect(outcome).toMatchObject({ kind: 'done', replayed: true, value: { reservation: { code: 'ABCDE-FGHJK' }, checkIn: 'checked-in' } });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => JSON.stringify([s.url, s.key, s.auth, s.body])))).toEqual(new Set([
      JSON.stringify(['https://slots.test/api/staff/places/7/walk-ins', 'walk-in-key-1', 'Bearer token-1', JSON.stringify(request)]),
    ]));
  });

  it('answers a refusal as its problem', async () => {
    const fetchFn = (async () => new Response(JSON.stringify({ code: 'already-booked', existingCode: 'ABCDE-FGHJK' }), { status: 409 })) as typeof fetch;
    const outcome = await new StaffApi('', 'token-1', fetchFn).walkIn(7, request, 'walk-in-key-2', { clock: instantClock });
    expect(outcome).toEqual({ kind: 'problem', problem: { status: 409, code: 'already-booked', existingCode: 'ABCDE-FGHJK' } });
  });
});
