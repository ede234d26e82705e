import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  claimRefusal, defaultRange, forgetEntryToken, formatCountdown, isEntryToken, lastDayFrom, pollDelayMs, rangeErrors, saveEntryToken, savedEntryToken,
} from './waitlist';

describe('the waiting list\'s default days', () => {
  it('are the shown week\'s days from today', () => {
    expect(defaultRange({ from: '2030-01-07', to: '2030-01-13' }, '2030-01-07')).toEqual({ from: '2030-01-07', to: '2030-01-13' });
    expect(defaultRange({ from: '2030-01-14', to: '2030-01-20' }, '2030-01-07')).toEqual({ from: '2030-01-14', to: '2030-01-20' });
  });

  it('never start before today', () => {
    expect(defaultRange({ from: '2030-01-05', to: '2030-01-11' }, '2030-01-07')).toEqual({ from: '2030-01-07', to: '2030-01-11' });
    expect(defaultRange({ from: '2030-01-01', to: '2030-01-03' }, '2030-01-07')).toEqual({ from: '2030-01-07', to: '2030-01-07' });
  });

  it('are at most 31 days, counting both ends', () => {
    expect(defaultRange({ from: '2030-01-01', to: '2030-03-01' }, '2030-01-01')).toEqual({ from: '2030-01-01', to: '2030-01-31' });
    expect(lastDayFrom('2030-02-15')).toBe('2030-03-17');
  });
});

describe('a range of days', () => {
  const today = '2030-01-07';

  it('passes from today up to 31 days', () => {
    expect(rangeErrors({ from: today, to: today }, today)).toEqual({});
    expect(rangeErrors({ from: today, to: '2030-02-06' }, today)).toEqual({});
  });

  it('names what is wrong with each end', () => {
    expect(rangeErrors({ from: '', to: '' }, today)).toEqual({ from: 'wlErrDay', to: 'wlErrDay' });
    expect(rangeErrors({ from: '2030-01-06', to: '2030-01-08' }, today)).toEqual({ from: 'wlErrPast' });
    expect(rangeErrors({ from: '2030-01-09', to: '2030-01-08' }, today)).toEqual({ to: 'wlErrOrder' });
    expect(rangeErrors({ from: today, to: '2030-02-07' }, today)).toEqual({ to: 'wlErrTooLong' });
  });
});

describe('the held seat\'s countdown', () => {
  it('reads as minutes and seconds, rounding up to the next second', () => {
    expect(formatCountdown(15 * 60_000)).toBe('15:00');
    expect(formatCountdown(14 * 60_000 + 59_001)).toBe('15:00');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(9_000)).toBe('0:09');
    expect(formatCountdown(1)).toBe('0:01');
  });

  it('shows hours from an hour and never goes below zero', () => {
    expect(formatCountdown(3_600_000 + 61_000)).toBe('1:01:01');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5_000)).toBe('0:00');
  });
});

describe('asking again', () => {
  it('is quick while a seat is held, slow while waiting, never once over', () => {
    expect(pollDelayMs('offered')).toBe(2_000);
    expect(pollDelayMs('waiting')).toBe(10_000);
    for (const state of ['booked', 'left', 'expired'] as const) expect(pollDelayMs(state), state).toBeNull();
  });
});

describe('an entry\'s token', () => {
  // The unit tests run in Node: a Map stands in for the browser's storage.
  beforeEach(() => {
    const items = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is 32 hex characters', () => {
    expect(isEntryToken('0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isEntryToken('0123456789ABCDEF0123456789abcdef')).toBe(false);
    expect(isEntryToken('0123456789abcdef')).toBe(false);
  });

  it('is kept per place until forgotten', () => {
    saveEntryToken(12, 'a'.repeat(32));
    expect(savedEntryToken(12)).toBe('a'.repeat(32));
    expect(localStorage.getItem('slots.waitlist.12')).toBe('a'.repeat(32));
    expect(savedEntryToken(13)).toBeNull();
    forgetEntryToken(12);
    expect(savedEntryToken(12)).toBeNull();
  });

  it('is simply not kept where storage is switched off', () => {
    const off = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    vi.stubGlobal('localStorage', { getItem: off, setItem: off, removeItem: off });
    saveEntryToken(12, 'a'.repeat(32));
    expect(savedEntryToken(12)).toBeNull();
    forgetEntryToken(12);
  });
});

describe('a claim\'s refusal', () => {
  it('is worded for the held seat where the claim has its own words', () => {
    expect(claimRefusal('offer-expired')).toBe('wlOfferExpired');
    expect(claimRefusal('offer-not-found')).toBe('wlOfferNotFound');
    expect(claimRefusal('second-dose-full')).toBe('wlSecondDoseFull');
  });

  it('leaves every other problem to the shared wording', () => {
    expect(claimRefusal('already-booked')).toBeNull();
    expect(claimRefusal(undefined)).toBeNull();
  });
});
