import type { SetCapacity } from '../api/types';

/** What the capacity card's fields hold, as typed. */
export interface CapacityDraft {
  place: string;
  service: string;
  from: string;
  to: string;
  time: string;
  seats: string;
}

export type CapacityField = keyof CapacityDraft;

export const emptyCapacity: CapacityDraft = { place: '', service: '', from: '', to: '', time: '', seats: '' };

/** Message keys of the card's own checks, per field; the API checks the same again. */
export type CapacityError = 'errPlace' | 'errDay' | 'errToBeforeFrom' | 'errTime' | 'errSeats';

const day = /^\d{4}-\d{2}-\d{2}$/;
const time = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** The place and the request the draft stands for, or the fields that are wrong. */
export function capacityRequest(draft: CapacityDraft):
  { place: number; change: SetCapacity } | { errors: Partial<Record<CapacityField, CapacityError>> } {
  const errors: Partial<Record<CapacityField, CapacityError>> = {};
  const place = Number(draft.place.trim());
  if (!/^[1-9][0-9]*$/.test(draft.place.trim()) || !Number.isSafeInteger(place)) errors.place = 'errPlace';
  if (!day.test(draft.from)) errors.from = 'errDay';
  if (!day.test(draft.to)) errors.to = 'errDay';
  else if (day.test(draft.from) && draft.to < draft.from) errors.to = 'errToBeforeFrom';
  const at = draft.time.trim();
  if (at && !time.test(at)) errors.time = 'errTime';
  const seats = Number(draft.seats.trim());
  if (!/^[0-9]+$/.test(draft.seats.trim()) || seats < 1 || seats > 10_000) errors.seats = 'errSeats';
  if (Object.keys(errors).length > 0) return { errors };
  return {
    place,
    change: { from: draft.from, to: draft.to, seats, ...(draft.service ? { service: draft.service } : {}), ...(at ? { time: at } : {}) },
  };
}
