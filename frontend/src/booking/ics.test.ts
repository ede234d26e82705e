import { describe, expect, it } from 'vitest';
import { bookingDescription, toIcs } from './ics';

describe('toIcs', () => {
  it('writes one event in UTC with escaped text', () => {
    const ics = toIcs({
      uid: 'ABCDE-FGHJK@slots', summary: 'Termín: Poliklinika', location: 'Hlavná 1, Nitra', description: 'Kód: ABCDE-FGHJK',
      day: '2026-11-24', time: '08:15', minutes: 15, timeZone: 'Europe/Bratislava',
    }, new Date(Date.UTC(2026, 10, 22, 10, 0, 0)));
    const lines = ics.split('\r\n');
    expect(lines).toContain('DTSTART:20261124T071500Z');
    expect(lines).toContain('DTEND:20261124T073000Z');
    expect(lines).toContain('DTSTAMP:20261122T100000Z');
    expect(lines).toContain('LOCATION:Hlavná 1\\, Nitra');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });
});

describe('the calendar file of a booking', () => {
  it('carries the booking code in its description and uid', () => {
    const ics = toIcs({
      uid: 'ABCDE-FGHJK@slots', summary: 'Appointment: Poliklinika', location: 'Hlavná 1, Nitra',
      description: bookingDescription('ABCDE-FGHJK', 'Booking code'),
      day: '2026-11-24', time: '08:15', minutes: 15, timeZone: 'Europe/Bratislava',
    }, new Date(Date.UTC(2026, 10, 22, 10, 0, 0)));
    const lines = ics.split('\r\n');
    expect(lines).toContain('DESCRIPTION:Booking code: ABCDE-FGHJK');
    expect(lines).toContain('UID:ABCDE-FGHJK@slots');
  });
});

describe('the calendar file of a two-dose booking', () => {
  it('holds both appointments as two events, each with a uid of its own', () => {
    const common = { location: 'Hlavná 1, Nitra', description: 'Kód: ABCDE-FGHJK', minutes: 15, timeZone: 'Europe/Bratislava' };
    const ics = toIcs([
      { ...common, uid: 'ABCDE-FGHJK@slots', summary: '1. dávka: Poliklinika', day: '2026-11-24', time: '08:15' },
      { ...common, uid: 'ABCDE-FGHJK-2@slots', summary: '2. dávka: Poliklinika', day: '2026-12-15', time: '08:15' },
    ], new Date(Date.UTC(2026, 10, 22, 10, 0, 0)));
    const lines = ics.split('\r\n');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('UID:'))).toEqual(['UID:ABCDE-FGHJK@slots', 'UID:ABCDE-FGHJK-2@slots']);
    expect(lines.filter((l) => l.startsWith('DTSTART:'))).toEqual(['DTSTART:20261124T071500Z', 'DTSTART:20261215T071500Z']);
    expect(lines.filter((l) => l === 'BEGIN:VCALENDAR')).toHaveLength(1);
  });
});
