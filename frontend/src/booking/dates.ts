// Days travel as "yyyy-MM-dd" and times as "HH:mm" in the place's own time zone; these helpers
// never let the browser's time zone leak in.

export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The locale dates are written in: English as in Britain and Ireland (day before month, "Mon 24/11"),
 * which is how a European reader expects it, not the American "11/24".
 */
export function dateLocale(lang: string): string {
  return lang === 'en' ? 'en-GB' : lang === 'sk' ? 'sk-SK' : lang;
}

/** A day as people read it, e.g. "po 24. 11." or "Mon 24/11"; long: "pondelok 24. novembra 2025". */
export function formatDay(day: string, lang: string, long = false): string {
  const [y, m, d] = day.split('-').map(Number);
  const options: Intl.DateTimeFormatOptions = long
    ? { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }
    : { weekday: 'short', day: 'numeric', month: 'numeric', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(dateLocale(lang), options).format(new Date(Date.UTC(y, m - 1, d, 12)));
}

function offsetMs(utcMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(new Date(utcMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** The instant at which a wall-clock time happens in an IANA time zone. */
export function zonedToUtc(day: string, time: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const first = wall - offsetMs(wall, timeZone);
  // A second pass settles times near a daylight-saving change.
  return new Date(wall - offsetMs(first, timeZone));
}
