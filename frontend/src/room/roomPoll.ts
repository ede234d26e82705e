import { ApiError } from '../api/http';
import { type Clock, realClock } from '../api/retry';
import type { RoomAnswer } from '../api/slotsApi';
import type { RoomStatus } from '../api/types';

export interface RoomPollHooks {
  /** Every status answer, as it comes. */
  onStatus: (answer: RoomAnswer) => void;
  /** The status could not be had (no answer, or the server said wait); the next try is in retryInMs. */
  onTrouble: (retryInMs: number) => void;
}

/** How the poll ended: a state that needs no more polling, a token the server refused, or the caller stopped it. */
export type RoomPollEnd =
  | { kind: 'settled'; status: RoomStatus }
  | { kind: 'invalid' }
  | { kind: 'aborted' };

/** States after which asking again changes nothing: the turn came, the room closed, the turn lapsed. */
export function isSettled(status: RoomStatus): boolean {
  return status.state === 'admitted' || status.state === 'closed' || status.state === 'expired';
}

const maxJitterMs = 500;
const maxTroubleMs = 30_000;

/**
 * Asks where a token stands at the pace the server sets (Retry-After), with a small random extra so
 * a crowd told the same number does not return in one burst. Trouble (no answer, 429, 503) backs off
 * from 2 s to 30 s, or waits what Retry-After says, and never gives the place in line up.
 */
export async function pollRoom(
  status: (token: string, signal?: AbortSignal) => Promise<RoomAnswer>,
  token: string,
  hooks: RoomPollHooks,
  signal: AbortSignal,
  clock: Clock = realClock,
  firstAfterMs = 0,
): Promise<RoomPollEnd> {
  let troubles = 0;
  if (firstAfterMs > 0) {
    try {
      await clock.sleep(firstAfterMs, signal);
    } catch {
      return { kind: 'aborted' };
    }
  }
  while (!signal.aborted) {
    let delayMs: number;
    try {
      const answer = await status(token, signal);
      hooks.onStatus(answer);
      if (isSettled(answer.status)) return { kind: 'settled', status: answer.status };
      troubles = 0;
      delayMs = Math.max(1_000, answer.askAgainMs);
    } catch (error) {
      if (signal.aborted) break;
      if (error instanceof ApiError && error.problem.status === 401) return { kind: 'invalid' };
      troubles += 1;
      const retryAfterMs = error instanceof ApiError ? error.retryAfterMs : null;
      delayMs = retryAfterMs ?? Math.min(maxTroubleMs, 2_000 * 2 ** (troubles - 1));
      hooks.onTrouble(delayMs);
    }
    try {
      await clock.sleep(delayMs + Math.floor(clock.random() * maxJitterMs), signal);
    } catch {
      break;
    }
  }
  return { kind: 'aborted' };
}

/**
 * What a screen reader is told: a new sentence only when the state changes or the people ahead
 * cross a milestone, so a live region does not read out a number every second.
 */
export function aheadMilestone(ahead: number): number {
  if (ahead <= 10) return ahead;
  const steps = [25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000];
  return steps.find((step) => ahead <= step) ?? Math.ceil(ahead / 100_000) * 100_000;
}
