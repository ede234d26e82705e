import { describe, expect, it } from 'vitest';
import type { Clock } from '../api/retry';
import { SlotsApi } from '../api/slotsApi';
import type { RoomStatus } from '../api/types';
import { aheadMilestone, pollRoom } from './roomPoll';

function fakeClock(): Clock & { slept: number[] } {
  const slept: number[] = [];
  return { slept, now: () => 0, random: () => 0, sleep: async (ms) => { slept.push(ms); } };
}

const waiting = (ahead: number): RoomStatus => ({
  state: 'waiting', openingId: 7, opensAt: '2030-01-02T08:00:00Z', seatsLeft: 40, askAgainSeconds: 3,
  position: ahead + 1, ahead, estimatedWaitSeconds: ahead * 2, admittedUntil: null,
});
const admitted: RoomStatus = { ...waiting(0), state: 'admitted', ahead: 0, admittedUntil: '2030-01-02T08:10:00Z' };

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A status endpoint that answers from a script and records what it was sent. */
function scripted(answers: (() => Response)[]) {
  const seen: { url: string; token: string | null }[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    seen.push({ url, token: new Headers(init.headers).get('Waiting-Room-Token') });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  }) as typeof fetch;
  const api = new SlotsApi('', fetchFn);
  return { seen, status: (token: string, signal?: AbortSignal) => api.roomStatus(token, signal) };
}

describe('pollRoom', () => {
  it('asks at the pace Retry-After sets, sends the token only in its header, and stops once admitted', async () => {
    const { seen, status } = scripted([
      () => json(waiting(2), 200, { 'Retry-After': '3' }),
      () => json(waiting(1), 200, { 'Retry-After': '2' }),
      () => json(admitted, 200, { 'Retry-After': '5' }),
    ]);
    const clock = fakeClock();
    const aheads: (number | null)[] = [];
    const end = await pollRoom(status, 'signed.token', { onStatus: (a) => aheads.push(a.status.ahead), onTrouble: () => {} },
      new AbortController().signal, clock);
    expect(end).toEqual({ kind: 'settled', status: admitted });
    expect(aheads).toEqual([2, 1, 0]);
    expect(clock.slept).toEqual([3_000, 2_000]);
    expect(seen.every((s) => s.token === 'signed.token' && s.url === '/api/waiting-room/status')).toBe(true);
  });

  it('keeps the place through trouble: waits what a 429 says, backs off further after lost answers, then goes on', async () => {
    const { status } = scripted([
      () => json({ status: 429, code: 'rate-limited' }, 429, { 'Retry-After': '4' }),
      () => { throw new TypeError('Failed to fetch'); },
      () => { throw new TypeError('Failed to fetch'); },
      () => json(waiting(5)),
      () => json({ ...waiting(0), state: 'closed' }),
    ]);
    const clock = fakeClock();
    const troubles: number[] = [];
    const end = await pollRoom(status, 't', { onStatus: () => {}, onTrouble: (ms) => troubles.push(ms) }, new AbortController().signal, clock);
    expect(end.kind).toBe('settled');
    expect(troubles).toEqual([4_000, 4_000, 8_000]);
    // askAgainSeconds from the body when there is no Retry-After header.
    expect(clock.slept).toEqual([4_000, 4_000, 8_000, 3_000]);
  });

  it('ends on a refused token, so the person can join again', async () => {
    const { status } = scripted([() => json({ status: 401, code: 'waiting-room-token-invalid' }, 401)]);
    const end = await pollRoom(status, 'forged', { onStatus: () => {}, onTrouble: () => {} }, new AbortController().signal, fakeClock());
    expect(end).toEqual({ kind: 'invalid' });
  });

  it('goes on through no-seats-left: the room may reopen when seats come back', async () => {
    const noSeats = { ...waiting(3), state: 'no-seats-left', seatsLeft: 0 } as RoomStatus;
    const { status } = scripted([() => json(noSeats), () => json(noSeats), () => json(admitted)]);
    const states: string[] = [];
    const end = await pollRoom(status, 't', { onStatus: (a) => states.push(a.status.state), onTrouble: () => {} },
      new AbortController().signal, fakeClock());
    expect(states).toEqual(['no-seats-left', 'no-seats-left', 'admitted']);
    expect(end.kind).toBe('settled');
  });

  it('after a join, which answered a status already, waits its pace before the first poll', async () => {
    const { seen, status } = scripted([() => json(admitted)]);
    const clock = fakeClock();
    await pollRoom(status, 't', { onStatus: () => {}, onTrouble: () => {} }, new AbortController().signal, clock, 3_000);
    expect(clock.slept).toEqual([3_000]);
    expect(seen).toHaveLength(1);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const { status } = scripted([() => json(waiting(9)), () => json(waiting(8))]);
    const clock: Clock = { now: () => 0, random: () => 0, sleep: async () => { controller.abort(); throw new Error('aborted'); } };
    const end = await pollRoom(status, 't', { onStatus: () => {}, onTrouble: () => {} }, controller.signal, clock);
    expect(end).toEqual({ kind: 'aborted' });
  });
});

describe('aheadMilestone', () => {
  it('is exact up to ten, then steps, so a live region is not read every second', () => {
    expect([0, 1, 10].map(aheadMilestone)).toEqual([0, 1, 10]);
    expect([11, 25, 26, 99, 101, 4_000].map(aheadMilestone)).toEqual([25, 25, 50, 100, 250, 5_000]);
    expect(aheadMilestone(123_456)).toBe(200_000);
  });
});

describe('SlotsApi waiting room calls', () => {
  it('joins with the national id in the body, never the URL, and books with the token in its header', async () => {
    const seen: { url: string; body?: string; headers: Headers }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      seen.push({ url, body: init.body as string | undefined, headers: new Headers(init.headers) });
      return url.endsWith('/join') ? json({ token: 'tok', status: waiting(4) }, 201) : json({ code: 'ABCDE-FGHJK' }, 201);
    }) as typeof fetch;
    const api = new SlotsApi('', fetchFn);
    const joined = await api.joinRoom(7, '900101/1234');
    expect(joined.token).toBe('tok');
    await api.reserve({ placeId: 1, day: '2030-01-02', time: '08:00', name: 'J', phone: '0905123456', nationalId: '9001011234', language: 'sk' },
      'key', {}, 'tok');
    expect(seen[0].url).toBe('/api/waiting-room/openings/7/join');
    expect(seen[0].url).not.toContain('900101');
    expect(JSON.parse(seen[0].body!)).toEqual({ nationalId: '900101/1234' });
    expect(seen[1].headers.get('Waiting-Room-Token')).toBe('tok');
  });
});
