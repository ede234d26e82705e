import { describe, expect, it } from 'vitest';
import { addDays, formatDay, zonedToUtc } from './dates';

describe('addDays', () => {
  it('crosses months and years', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('zonedToUtc', () => {
  it('uses winter and summer offsets of the place, not of the browser', () => {
    expect(zonedToUtc('2026-01-15', '08:00', 'Europe/Bratislava').toISOString()).toBe('2026-01-15T07:00:00.000Z');
    expect(zonedToUtc('2026-07-15', '08:00', 'Europe/Bratislava').toISOString()).toBe('2026-07-15T06:00:00.000Z');
  });

  it('handles the day daylight saving starts', () => {
    expect(zonedToUtc('2026-03-29', '08:00', 'Europe/Bratislava').toISOString()).toBe('2026-03-29T06:00:00.000Z');
  });
});

// Regression: English dates were American ("Week 11/25 – 12/1"); a European reader reads 11/12 as 11 December.
describe('formatDay', () => {
  it('writes English dates day first', () => {
    expect(formatDay('2026-11-25', 'en')).toBe('Wed 25/11');
    expect(formatDay('2026-12-01', 'en', true)).toBe('Tuesday, 1 December 2026');
  });

  it('writes Slovak dates as Slovaks do', () => {
    expect(formatDay('2026-11-25', 'sk')).toBe('st 25. 11.');
    expect(formatDay('2026-12-01', 'sk', true)).toBe('utorok 1. decembra 2026');
  });
});
