import type { Language, Place } from '../api/types';

/** A service as a place offers it (PlaceDto.services): its code, names and appointment length. */
export type PlaceService = NonNullable<Place['services']>[number];

/** The services a place offers, as far as the page knows them (none where it has the place from the list only). */
export function servicesOf(place: Place): PlaceService[] {
  return place.services ?? [];
}

/**
 * Whether the page has the place with its services (GET /api/places/{id}), so it can tell whether to ask
 * for a service or an invitation code. A place from the search list (GET /api/places) comes without them.
 */
export function servicesKnown(place: Place): boolean {
  return place.services != null;
}

/**
 * Whether the person must choose a service before a time: only where the place offers several. A
 * place with one service is booked without naming it, exactly as before services existed.
 */
export function needsServiceChoice(place: Place): boolean {
  return servicesOf(place).length > 1;
}

/** The service's name in the page's language; the code when the place does not list it. */
export function serviceName(place: Place, code: string, lang: Language): string {
  const service = servicesOf(place).find((s) => s.code === code);
  if (!service) return code;
  return lang === 'sk' ? service.nameSk : service.nameEn;
}

/** How a booking of a service treats invitation codes: only holders book it, or a code admits before one's age group. */
export type InvitationMode = 'required' | 'accepted';

/**
 * Whether the person form asks for an invitation code for the slot's service (the place's only one
 * where none is named), and how; undefined where codes play no part or the place lists no services.
 */
export function invitationOf(place: Place, code: string | undefined): InvitationMode | undefined {
  const offered = servicesOf(place);
  const service = code === undefined ? (offered.length === 1 ? offered[0] : undefined) : offered.find((s) => s.code === code);
  const mode = service?.invitation;
  return mode === 'required' || mode === 'accepted' ? mode : undefined;
}
