// Safe retries for a crowd: wait as long as the server asks (Retry-After), add a bounded random
// extra so a crowd told the same number does not come back in one burst, and stop after a total
// bound so nobody waits forever. The caller decides what is safe to resend; a booking is, because
// it carries the same Idempotency-Key on every attempt.

export interface RetryPolicy {
  /** The longest a person waits in all before being told to try again later. */
  maxTotalMs: number;
  /** First wait after a failure without Retry-After; doubles per attempt up to maxBackoffMs. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** Upper bound (exclusive) of the random extra added to every wait. */
  maxJitterMs: number;
  /** A request that has not answered by then counts as a network failure. */
  requestTimeoutMs: number;
}

export const defaultPolicy: RetryPolicy = {
  maxTotalMs: 180_000,
  baseBackoffMs: 1_000,
  maxBackoffMs: 15_000,
  maxJitterMs: 2_000,
  requestTimeoutMs: 20_000,
};

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
}

export const realClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      }, { once: true });
    }),
};

/** busy: the server said wait (429, 503, request in progress); offline: no answer at all. */
export type WaitReason = 'busy' | 'offline';

export interface Wait {
  reason: WaitReason;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** Clock time at which the next attempt starts. */
  until: number;
}

export type RetryResult =
  | { kind: 'response'; response: Response }
  | { kind: 'gave-up'; reason: WaitReason }
  | { kind: 'aborted' };

export interface RetryOptions {
  policy?: RetryPolicy;
  clock?: Clock;
  signal?: AbortSignal;
  onWait?: (wait: Wait) => void;
  /** Only requests that cannot take effect twice may be resent after a lost answer. */
  resendAfterNetworkError: boolean;
}

/** Milliseconds from a Retry-After header (seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

export function retryDelayMs(attempt: number, retryAfterMs: number | null, policy: RetryPolicy, random: () => number): number {
  const base = retryAfterMs ?? Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** (attempt - 1));
  return base + Math.floor(random() * policy.maxJitterMs);
}

async function isBusy(response: Response): Promise<boolean> {
  if (response.status === 503) return true;
  if (response.status !== 409 && response.status !== 429) return false;
  let code: string | undefined;
  try {
    code = ((await response.clone().json()) as { code?: string }).code;
  } catch {
    code = undefined;
  }
  // A code that took too many wrong proofs is an answer for the person, not a crowd to wait out:
  // its Retry-After runs to an hour.
  if (response.status === 429) return code !== 'wrong-proof-limit';
  return code === 'request-in-progress';
}

async function sendOnce(send: (signal: AbortSignal) => Promise<Response>, timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  const abort = () => controller.abort();
  outer?.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(abort, timeoutMs);
  try {
    return await send(controller.signal);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', abort);
  }
}

export async function sendWithRetry(send: (signal: AbortSignal) => Promise<Response>, options: RetryOptions): Promise<RetryResult> {
  const { policy = defaultPolicy, clock = realClock, signal, onWait } = options;
  const started = clock.now();
  for (let attempt = 1; ; attempt++) {
    let reason: WaitReason;
    let retryAfterMs: number | null = null;
    try {
      const response = await sendOnce(send, policy.requestTimeoutMs, signal);
      if (!(await isBusy(response))) return { kind: 'response', response };
      reason = 'busy';
      retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'), clock.now());
    } catch {
      if (signal?.aborted) return { kind: 'aborted' };
      reason = 'offline';
      if (!options.resendAfterNetworkError) return { kind: 'gave-up', reason };
    }
    const delayMs = retryDelayMs(attempt, retryAfterMs, policy, clock.random);
    if (clock.now() + delayMs - started > policy.maxTotalMs) return { kind: 'gave-up', reason };
    onWait?.({ reason, attempt, delayMs, until: clock.now() + delayMs });
    try {
      await clock.sleep(delayMs, signal);
    } catch {
      return { kind: 'aborted' };
    }
  }
}
