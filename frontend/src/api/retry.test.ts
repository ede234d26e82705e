import { describe, expect, it } from 'vitest';
import { type Clock, type RetryPolicy, parseRetryAfter, retryDelayMs, sendWithRetry, type Wait } from './retry';

const policy: RetryPolicy = { maxTotalMs: 60_000, baseBackoffMs: 1_000, maxBackoffMs: 8_000, maxJitterMs: 2_000, requestTimeoutMs: 5_000 };

function fakeClock(random = () => 0): Clock & { slept: number[] } {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    random,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

function problem(status: number, code: string, retryAfter?: string): Response {
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (retryAfter !== undefined) headers['Retry-After'] = retryAfter;
  return new Response(JSON.stringify({ status, code }), { status, headers });
}

const created = () => new Response('{"code":"ABCDE-FGHJK"}', { status: 201 });

describe('parseRetryAfter', () => {
  it('reads seconds', () => expect(parseRetryAfter('7', 0)).toBe(7_000));
  it('reads an HTTP date relative to now', () =>
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4_000)).toBe(6_000));
  it('ignores a missing or unreadable value', () => {
    expect(parseRetryAfter(null, 0)).toBeNull();
    expect(parseRetryAfter('soon', 0)).toBeNull();
  });
});

describe('retryDelayMs', () => {
  it('honours Retry-After and keeps the jitter below the bound', () => {
    for (const r of [0, 0.25, 0.5, 0.999999]) {
      const delay = retryDelayMs(1, 5_000, policy, () => r);
      expect(delay).toBeGreaterThanOrEqual(5_000);
      expect(delay).toBeLessThan(5_000 + policy.maxJitterMs);
    }
  });

  it('backs off exponentially up to the cap without Retry-After', () => {
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(a, null, policy, () => 0))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
  });
});

describe('sendWithRetry', () => {
  it('waits for Retry-After, then returns the answer of the retry', async () => {
    const clock = fakeClock(() => 0.5);
    const answers = [problem(429, 'rate-limited', '3'), created()];
    const waits: Wait[] = [];
    const result = await sendWithRetry(async () => answers.shift()!, { policy, clock, resendAfterNetworkError: true, onWait: (w) => waits.push(w) });
    expect(result.kind).toBe('response');
    expect(result.kind === 'response' && result.response.status).toBe(201);
    expect(clock.slept).toEqual([4_000]);
    expect(waits).toEqual([{ reason: 'busy', attempt: 1, delayMs: 4_000, until: 1_000_000 + 4_000 }]);
  });

  it('retries after a network failure with back-off', async () => {
    const clock = fakeClock();
    let calls = 0;
    const result = await sendWithRetry(async () => {
      if (++calls < 3) throw new TypeError('Failed to fetch');
      return created();
    }, { policy, clock, resendAfterNetworkError: true });
    expect(result.kind).toBe('response');
    expect(clock.slept).toEqual([1_000, 2_000]);
  });

  it('does not resend after a network failure when that would not be safe', async () => {
    const clock = fakeClock();
    const result = await sendWithRetry(async () => {
      throw new TypeError('Failed to fetch');
    }, { policy, clock, resendAfterNetworkError: false });
    expect(result).toEqual({ kind: 'gave-up', reason: 'offline' });
    expect(clock.slept).toEqual([]);
  });

  it('gives up once the next wait would pass the total bound', async () => {
    const clock = fakeClock();
    let calls = 0;
    const result = await sendWithRetry(async () => {
      calls++;
      return problem(503, 'database-unavailable', '25');
    }, { policy, clock, resendAfterNetworkError: true });
    expect(result).toEqual({ kind: 'gave-up', reason: 'busy' });
    expect(clock.slept).toEqual([25_000, 25_000]);
    expect(calls).toBe(3);
  });

  it('passes other answers straight through', async () => {
    const result = await sendWithRetry(async () => problem(409, 'slot-full'), { policy, clock: fakeClock(), resendAfterNetworkError: true });
    expect(result.kind === 'response' && result.response.status).toBe(409);
  });

  it('stops when the person cancels the wait', async () => {
    const controller = new AbortController();
    const clock = fakeClock();
    clock.sleep = async () => {
      throw new DOMException('aborted', 'AbortError');
    };
    const result = await sendWithRetry(async () => {
      controller.abort();
      return problem(429, 'rate-limited', '5');
    }, { policy, clock, signal: controller.signal, resendAfterNetworkError: true });
    expect(result).toEqual({ kind: 'aborted' });
  });

  it('treats a request that never answers as a network failure', async () => {
    const clock = fakeClock();
    let calls = 0;
    const hanging = (signal: AbortSignal) =>
      new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('timeout', 'AbortError'))));
    const result = await sendWithRetry(async (signal) => (++calls === 1 ? hanging(signal) : created()), {
      policy: { ...policy, requestTimeoutMs: 10 }, clock, resendAfterNetworkError: true,
    });
    expect(result.kind).toBe('response');
    expect(clock.slept).toEqual([1_000]);
  });
});
