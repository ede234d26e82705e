import { describe, expect, it } from 'vitest';
import { addDays, zonedToUtc } from './dates';

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
