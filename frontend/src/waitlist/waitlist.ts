import type { MessageKey } from '../i18n/messages';
import type { WaitingListState } from '../api/types';
import { addDays } from '../booking/dates';

/**
 * The claim's own refusals, worded for the person whose seat is held; other problems take the
 * shared wording (problemMessage). At a two-dose service a claim with no seat for the second dose
 * books nothing and the seat stays held, so the booking page's advice to pick another time is wrong here.
 */
export function claimRefusal(code: string | undefined): MessageKey | null {
  switch (code) {
    case 'offer-expired':
      return 'wlOfferExpired';
    case 'offer-not-found':
      return 'wlOfferNotFound';
    case 'second-dose-full':
      return 'wlSecondDoseFull';
    default:
      return null;
  }
}

/** The longest range one entry may ask for, counting both ends (Slots:WaitingList:MaxDays). */
export const maxDays = 31;

export interface DayRange {
  from: string;
  to: string;
}

/** Days as yyyy-MM-dd compare as text; the difference counts whole days. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The shown week's days from today on (today: the place's, as its first week starts). */
export function defaultRange(shown: DayRange, today: string): DayRange {
  const from = shown.from < today ? today : shown.from;
  const to = shown.to < from ? from : shown.to;
  return { from, to: daysBetween(from, to) >= maxDays ? addDays(from, maxDays - 1) : to };
}

/** The last day a range starting on `from` may end on. */
export function lastDayFrom(from: string): string {
  return addDays(from, maxDays - 1);
}

/** What is wrong with a range of days, field by field, before the API is asked. */
export function rangeErrors(range: DayRange, today: string): Partial<Record<keyof DayRange, MessageKey>> {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  const errors: Partial<Record<keyof DayRange, MessageKey>> = {};
  if (!day.test(range.from) || Number.isNaN(Date.parse(range.from))) errors.from = 'wlErrDay';
  else if (range.from < today) errors.from = 'wlErrPast';
  if (!day.test(range.to) || Number.isNaN(Date.parse(range.to))) errors.to = 'wlErrDay';
  else if (!errors.from && range.to < range.from) errors.to = 'wlErrOrder';
  else if (!errors.from && daysBetween(range.from, range.to) >= maxDays) errors.to = 'wlErrTooLong';
  return errors;
}

/** A countdown as "m:ss" (or "h:mm:ss" from an hour), never below 0:00. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor(total / 60) % 60;
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** How long to wait before asking again: quickly while a seat is held, never once the entry is over. */
export function pollDelayMs(state: WaitingListState): number | null {
  switch (state) {
    case 'offered':
      return 2_000;
    case 'waiting':
      return 10_000;
    default:
      return null;
  }
}

/** Whether text is an entry's token as the API makes them (32 hex characters). */
export function isEntryToken(text: string): boolean {
  return /^[0-9a-f]{32}$/.test(text);
}

// An entry's token holds no personal data, so it may outlive the tab: the person finds their place in
// line again from the place's week.
const prefix = 'slots.waitlist.';

export function savedEntryToken(placeId: number): string | null {
  try {
    return localStorage.getItem(prefix + placeId);
  } catch {
    return null; // storage switched off: the SMS link still leads to the entry
  }
}

export function saveEntryToken(placeId: number, token: string): void {
  try {
    localStorage.setItem(prefix + placeId, token);
  } catch {
    // as above
  }
}

export function forgetEntryToken(placeId: number): void {
  try {
    localStorage.removeItem(prefix + placeId);
  } catch {
    // as above
  }
}
