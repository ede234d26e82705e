import type { Availability, Language, Problem, WalkIn, WalkInRequest } from '../api/types';
import type { InvitationMode } from '../booking/services';
import { personRules, validateInvitation } from '../booking/validation';
import type { MessageKey } from '../i18n/messages';
import { problemMessage } from '../ui/problemMessage';
import { staffProblem } from './staffMessages';
import type { StaffKey, StaffTranslate } from './staffTexts';

/** What the member typed for a person at the door or on the phone. */
export interface WalkInDraft {
  /** Empty until the place's today is known; empty is sent as today at the place. */
  day: string;
  time: string;
  /** The chosen service's code; empty where the place offers one. */
  service: string;
  name: string;
  phone: string;
  nationalId: string;
  invitation: string;
  language: Language;
  sms: boolean;
  checkIn: boolean;
}

export type WalkInField = 'day' | 'time' | 'service' | 'name' | 'phone' | 'nationalId' | 'invitation';
export type WalkInErrors = Partial<Record<WalkInField, MessageKey | StaffKey>>;

/** The fields in the form's order: the first one in error gets the focus. */
export const walkInFields: WalkInField[] = ['day', 'time', 'service', 'name', 'phone', 'nationalId', 'invitation'];

/** The SMS goes by default; checking in now is the member's choice for the person in front of them. */
export function emptyWalkIn(day = '', service = ''): WalkInDraft {
  return { day, time: '', service, name: '', phone: '', nationalId: '', invitation: '', language: 'sk', sms: true, checkIn: false };
}

/** How the place's services shape the form: whether one must be chosen, and how the chosen one takes invitation codes. */
export interface WalkInShape {
  chooseService: boolean;
  invitation?: InvitationMode;
}

/** The booking page's rules for the person and the invitation code, and a slot chosen; the API still decides. */
export function validateWalkIn(draft: WalkInDraft, shape: WalkInShape): WalkInErrors {
  const errors: WalkInErrors = {};
  if (draft.day && !/^\d{4}-\d{2}-\d{2}$/.test(draft.day)) errors.day = 'walkInErrDay';
  if (!/^\d\d:\d\d$/.test(draft.time)) errors.time = 'walkInErrTime';
  if (shape.chooseService && !draft.service) errors.service = 'walkInErrService';
  for (const field of ['name', 'phone', 'nationalId'] as const) {
    const error = personRules[field](draft[field]);
    if (error) errors[field] = error;
  }
  const invitation = shape.invitation ? validateInvitation(draft.invitation, shape.invitation === 'required') : undefined;
  if (invitation) errors.invitation = invitation;
  return errors;
}

/** The request as the API reads it: trimmed, the service only where one was chosen, the code only where the service takes one. */
export function walkInRequest(draft: WalkInDraft, shape: WalkInShape): WalkInRequest {
  const invitation = shape.invitation ? draft.invitation.trim() : '';
  return {
    day: draft.day || undefined,
    time: draft.time,
    name: draft.name.trim(),
    phone: draft.phone.trim(),
    nationalId: draft.nationalId.trim(),
    language: draft.language,
    service: shape.chooseService && draft.service ? draft.service : undefined,
    invitation: invitation || undefined,
    sms: draft.sms,
    checkIn: draft.checkIn,
  };
}

/** One submission and its Idempotency-Key: what was sent, as text. */
export interface WalkInAttempt {
  fingerprint: string;
  key: string;
}

/**
 * The attempt a submission belongs to: the same details as the last unanswered one keep its key (a
 * retry after a lost answer or a busy server cannot book twice); changed details get a new one. After
 * a booking the caller forgets the attempt, so the next person, even with equal details, is a new one.
 */
export function attemptFor(previous: WalkInAttempt | null, placeId: number, request: WalkInRequest, newKey: () => string): WalkInAttempt {
  const fingerprint = JSON.stringify([placeId, request]);
  return previous?.fingerprint === fingerprint ? previous : { fingerprint, key: newKey() };
}

/** A time the form offers: the slot's start and its free seats. */
export interface TimeChoice {
  time: string;
  free: number;
}

/**
 * The day's slots with a free seat, and the chosen time even once it has filled up (so the select
 * never shows a time other than the one that would be sent).
 */
export function timeChoices(availability: Availability | undefined, day: string, chosen: string): TimeChoice[] {
  const slots = availability?.days.find((d) => d.day === day)?.slots ?? [];
  const choices = slots.filter((s) => s.free > 0 || s.time === chosen).map((s) => ({ time: s.time, free: s.free }));
  if (chosen && !choices.some((c) => c.time === chosen)) choices.push({ time: chosen, free: 0 });
  return choices.sort((a, b) => a.time.localeCompare(b.time));
}

/** The fields a 400 names (its `errors`), each with the text to show beside it. */
export function walkInProblemErrors(problem: Problem): WalkInErrors {
  const errors: WalkInErrors = {};
  const texts: Record<WalkInField, MessageKey | StaffKey> = {
    day: 'walkInErrDay', time: 'walkInErrTime', service: 'walkInErrService', name: 'errName', phone: 'errPhone', nationalId: 'errNationalId',
    invitation: 'errInvitation',
  };
  for (const key of Object.keys(problem.errors ?? {})) {
    const name = key.replace(/^\$\.?/, '').toLowerCase();
    const field = walkInFields.find((f) => f.toLowerCase() === name);
    if (field) errors[field] = texts[field];
  }
  return errors;
}

/** What to tell the member about a refusal: the staff's own words where the person's page would mislead, its words otherwise. */
export function walkInRefusal(problem: Problem, t: StaffTranslate, lang: Language): string {
  if (problem.status === 401 || problem.code === 'place-forbidden' || (problem.status === 403 && problem.code !== 'not-eligible')) {
    return staffProblem(problem, t);
  }
  switch (problem.code) {
    case 'slot-full':
      return t('walkInSlotFull');
    case 'unknown-service':
      return t('walkInUnknownService');
    case 'validation-failed':
      return t('blockFormErrors');
    default:
      return problemMessage(problem, t, lang);
  }
}

/** The walk-in's outcome beside its code: the slot, whether the SMS went, and how the check-in went. */
export function walkInOutcome(walkIn: WalkIn, t: StaffTranslate): { sms: string; checkIn?: { kind: 'success' | 'info'; text: string } } {
  const sms = t(walkIn.sms ? 'walkInSmsSent' : 'walkInSmsNotSent');
  const time = walkIn.reservation.time;
  switch (walkIn.checkIn) {
    case 'checked-in':
      return { sms, checkIn: { kind: 'success', text: t('walkInCheckedIn') } };
    case 'too-early':
      return { sms, checkIn: { kind: 'info', text: t('walkInTooEarly', { time }) } };
    case 'too-late':
      return { sms, checkIn: { kind: 'info', text: t('walkInTooLate', { time }) } };
    case 'other-day':
      return { sms, checkIn: { kind: 'info', text: t('walkInOtherDay') } };
    default:
      return { sms };
  }
}
