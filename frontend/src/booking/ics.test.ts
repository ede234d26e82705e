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
