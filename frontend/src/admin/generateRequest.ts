import type { GenerateSlots, Place, Service } from '../api/types';
import { addDays } from '../booking/dates';

/** What the admin typed into the slot generation form. */
export interface GenerateValues {
  placeIds: string;
  from: string;
  to: string;
  firstStart: string;
  lastStart: string;
  interval: string;
  length: string;
  capacity: string;
  /** The service's code; 'default' is what the API generates when none is named. */
  service: string;
  /** Leave the template and seats out: each place's stored offer of the service gives them. */
  fromOffer: boolean;
}

export const defaultService = 'default';

export function initialGenerateValues(today = new Date().toISOString().slice(0, 10)): GenerateValues {
  return {
    placeIds: '', from: today, to: addDays(today, 6), firstStart: '08:00', lastStart: '15:45', interval: '15', length: '15', capacity: '4',
    service: defaultService, fromOffer: false,
  };
}

export function placeIdsOf(text: string): number[] {
  return text.split(/[\s,;]+/).filter(Boolean).map(Number);
}

/** The default service is left out, so a request that names none reads as it did before services. */
export function generateRequest(v: GenerateValues, dryRun: boolean): GenerateSlots {
  return {
    placeIds: placeIdsOf(v.placeIds),
    from: v.from,
    to: v.to,
    template: v.fromOffer ? undefined : { firstStart: v.firstStart, lastStart: v.lastStart, intervalMinutes: Number(v.interval), lengthMinutes: Number(v.length) },
    capacity: v.fromOffer ? undefined : Number(v.capacity),
    dryRun,
    service: v.service && v.service !== defaultService ? v.service : undefined,
  };
}

/** A service to choose from: its code and names. */
export type ServiceChoice = Pick<Service, 'code' | 'nameSk' | 'nameEn'>;

/**
 * The services the form offers: one place's own when a single place is named and read, else the
 * catalogue's; and the one chosen at first: the place's only service, else the default one where it is
 * offered, else the first.
 */
export function serviceChoices(catalogue: ServiceChoice[], place: Place | null): { choices: ServiceChoice[]; chosen: string } {
  const choices = place?.services?.length ? place.services : catalogue;
  const chosen = choices.length === 1 ? choices[0].code
    : choices.some((s) => s.code === defaultService) || choices.length === 0 ? defaultService : choices[0].code;
  return { choices, chosen };
}
