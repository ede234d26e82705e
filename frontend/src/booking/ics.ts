import { zonedToUtc } from './dates';

export interface CalendarEvent {
  uid: string;
  summary: string;
  location: string;
  description: string;
  day: string;
  time: string;
  minutes: number;
  timeZone: string;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

// RFC 5545 text: escape \ ; , and newlines.
function text(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** The event's description: the booking code, which the person shows (or its QR code) at the door. */
export function bookingDescription(code: string, codeLabel: string): string {
  return `${codeLabel}: ${code}`;
}

/** An iCalendar file with the events (a booking's one, or a pair's two), times in UTC so every calendar agrees. */
export function toIcs(events: CalendarEvent | CalendarEvent[], now: Date): string {
  const vevents = (Array.isArray(events) ? events : [events]).flatMap((event) => {
    const start = zonedToUtc(event.day, event.time, event.timeZone);
    const end = new Date(start.getTime() + event.minutes * 60_000);
    return [
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      `DTSTAMP:${stamp(now)}`,
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(end)}`,
      `SUMMARY:${text(event.summary)}`,
      `LOCATION:${text(event.location)}`,
      `DESCRIPTION:${text(event.description)}`,
      'END:VEVENT',
    ];
  });
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Slots//Booking//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', ...vevents, 'END:VCALENDAR', '']
    .join('\r\n');
}
