import type { DoseInterval, Place, Problem, Service } from '../api/types';
import type { MessageKey } from '../i18n/messages';
import type { DayRange } from '../waitlist/waitlist';
import { addDays } from './dates';
import { servicesOf } from './services';

// Two-dose bookings (issue 41 item 3): the API books the second dose with the first, at the same
// place, minDays to maxDays after it. These helpers only say what the page shows and sends; the API decides.

/** The code of the service a slot books: the one chosen, or the place's only one where none is named. */
export function bookedService(place: Place, chosen: string | undefined): string | undefined {
  if (chosen !== undefined) return chosen;
  const offered = servicesOf(place);
  return offered.length === 1 ? offered[0].code : undefined;
}

/** The interval to the service's second dose, from the catalogue; undefined for one appointment (or a code it does not list). */
export function doseIntervalOf(services: Service[], code: string | undefined): DoseInterval | undefined {
  return services.find((s) => s.code === code)?.secondDose ?? undefined;
}

/** The days a second dose may fall on: minDays to maxDays after the first dose's day, both included (the API's SecondDoseWindow). */
export function secondDoseDays(firstDay: string, interval: DoseInterval): DayRange {
  return { from: addDays(firstDay, interval.minDays), to: addDays(firstDay, interval.maxDays) };
}

/** The days a move of the second dose offers: the interval, cut to the 31 days one availability read may span. */
export function moveDays(firstDay: string, interval: DoseInterval): DayRange {
  const { from, to } = secondDoseDays(firstDay, interval);
  const last = addDays(from, 30);
  return { from, to: to > last ? last : to };
}

/** The booking page's second-dose day: empty (the earliest free day) or a day within the interval. */
export function validateSecondDay(day: string, days: DayRange): MessageKey | undefined {
  if (day === '') return undefined;
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(day));
  return valid && day >= days.from && day <= days.to ? undefined : 'errSecondDay';
}

/**
 * A booking's refusal that concerns the second-dose day the person chose, said at that field: outside
 * the interval, or (where a day was chosen) no free seat at that day's time. Undefined for the rest,
 * which the page says above the form (second-dose-full without a choice: another first-dose time).
 */
export function secondDayRefusal(problem: Problem, choseDay: boolean): MessageKey | undefined {
  if (problem.code === 'second-dose-outside-interval') return 'secondDoseOutside';
  if (problem.code === 'second-dose-full' && choseDay) return 'secondDayFull';
  return undefined;
}
