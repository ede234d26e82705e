import type { NewService, Problem, Service, ServiceEdit, ServiceOffer } from '../api/types';
import type { ServiceKey } from './serviceTexts';

// What the admin types into the service and offer forms, checked as the API checks it (the API still
// decides), turned into the requests, and the API's refusals placed beside the fields they name.

export type FieldErrors<F extends string> = Partial<Record<F, ServiceKey>>;

export interface ServiceDraft {
  code: string;
  nameSk: string;
  nameEn: string;
  twoDoses: boolean;
  minDays: string;
  maxDays: string;
  active: boolean;
}

export type ServiceField = 'code' | 'nameSk' | 'nameEn' | 'minDays' | 'maxDays';

export const emptyService: ServiceDraft = { code: '', nameSk: '', nameEn: '', twoDoses: false, minDays: '21', maxDays: '42', active: true };

export const nameMax = 100;
const doseDaysMax = 365;
const codePattern = /^[a-z0-9-]{1,32}$/;

/** A service of the catalogue in the form, to change it: its second dose kept, as the change sets every field. */
export function serviceDraft(service: Service, active = true): ServiceDraft {
  return {
    code: service.code,
    nameSk: service.nameSk,
    nameEn: service.nameEn,
    twoDoses: !!service.secondDose,
    minDays: String(service.secondDose?.minDays ?? emptyService.minDays),
    maxDays: String(service.secondDose?.maxDays ?? emptyService.maxDays),
    active,
  };
}

const wholeIn = (text: string, min: number, max: number) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

export function validateService(draft: ServiceDraft): FieldErrors<ServiceField> {
  const errors: FieldErrors<ServiceField> = {};
  if (!codePattern.test(draft.code.trim())) errors.code = 'errServiceCode';
  for (const field of ['nameSk', 'nameEn'] as const) {
    const name = draft[field].trim();
    if (name.length === 0 || name.length > nameMax) errors[field] = 'errServiceName';
  }
  if (draft.twoDoses) {
    if (!wholeIn(draft.minDays, 1, doseDaysMax)) errors.minDays = 'errDoseDays';
    if (!wholeIn(draft.maxDays, 1, doseDaysMax)) errors.maxDays = 'errDoseDays';
    else if (!errors.minDays && Number(draft.maxDays) < Number(draft.minDays)) errors.maxDays = 'errDoseOrder';
  }
  return errors;
}

export function serviceEdit(draft: ServiceDraft): ServiceEdit {
  return {
    nameSk: draft.nameSk.trim(),
    nameEn: draft.nameEn.trim(),
    secondDose: draft.twoDoses ? { minDays: Number(draft.minDays), maxDays: Number(draft.maxDays) } : undefined,
    active: draft.active,
  };
}

export function newService(draft: ServiceDraft): NewService {
  return { code: draft.code.trim(), ...serviceEdit(draft) };
}

export interface OfferDraft {
  service: string;
  seats: string;
  firstStart: string;
  lastStart: string;
  interval: string;
  length: string;
  active: boolean;
}

export type OfferField = 'seats' | 'firstStart' | 'lastStart' | 'interval' | 'length';

export const emptyOffer: OfferDraft = { service: '', seats: '4', firstStart: '08:00', lastStart: '15:45', interval: '15', length: '15', active: true };

const timePattern = /^([01]\d|2[0-3]):[0-5]\d$/;

export function validateOffer(draft: OfferDraft): FieldErrors<OfferField> {
  const errors: FieldErrors<OfferField> = {};
  if (!wholeIn(draft.seats, 1, 10_000)) errors.seats = 'errSeats';
  if (!timePattern.test(draft.firstStart)) errors.firstStart = 'errTime';
  if (!timePattern.test(draft.lastStart)) errors.lastStart = 'errTime';
  else if (!errors.firstStart && draft.lastStart < draft.firstStart) errors.lastStart = 'errLastStart';
  if (!wholeIn(draft.interval, 5, 720)) errors.interval = 'errMinutes';
  if (!wholeIn(draft.length, 5, 720)) errors.length = 'errMinutes';
  return errors;
}

/** The offer as it is to be; a stopped one keeps its seats and template, so offering it again needs no retyping. */
export function serviceOffer(draft: OfferDraft): ServiceOffer {
  return {
    seats: Number(draft.seats),
    template: { firstStart: draft.firstStart, lastStart: draft.lastStart, intervalMinutes: Number(draft.interval), lengthMinutes: Number(draft.length) },
    active: draft.active,
  };
}

/** The API's names for the fields (ServiceAdminEndpoints, SlotGenerationEndpoints.Template), as the forms name them. */
const serviceFields: Record<string, [ServiceField, ServiceKey]> = {
  code: ['code', 'errServiceCode'],
  namesk: ['nameSk', 'errServiceName'],
  nameen: ['nameEn', 'errServiceName'],
  'seconddose.mindays': ['minDays', 'errDoseDays'],
  'seconddose.maxdays': ['maxDays', 'errDoseDays'],
};

const offerFields: Record<string, [OfferField, ServiceKey]> = {
  seats: ['seats', 'errSeats'],
  'template.firststart': ['firstStart', 'errTime'],
  'template.laststart': ['lastStart', 'errTime'],
  'template.intervalminutes': ['interval', 'errMinutes'],
  'template.lengthminutes': ['length', 'errMinutes'],
};

function fieldErrors<F extends string>(problem: Problem, fields: Record<string, [F, ServiceKey]>): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const key of Object.keys(problem.errors ?? {})) {
    // A body the JSON reader refused names its path ($.seats); the handler's checks name the field.
    const found = fields[key.replace(/^\$\.?/, '').toLowerCase()];
    if (found) errors[found[0]] = found[1];
  }
  return errors;
}

/** The fields a 400 on a service names, each with the text to show beside it. */
export const serviceProblemErrors = (problem: Problem) => fieldErrors(problem, serviceFields);

/** The fields a 400 on an offer names, each with the text to show beside it. */
export const offerProblemErrors = (problem: Problem) => fieldErrors(problem, offerFields);
