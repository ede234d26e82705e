import type { Problem } from '../api/types';
import type { Translate } from '../i18n/I18n';

/** What to tell a person about a refusal the screen has no special handling for. */
export function problemMessage(problem: Problem, t: Translate): string {
  switch (problem.code) {
    case 'reservation-not-found':
      return t('notFound');
    case 'reservation-cancelled':
      return t('reservationCancelled');
    case 'reservation-started':
      return t('reservationStarted');
    case 'wrong-proof-limit':
      return t('wrongProofLimit');
    case 'unknown-slot':
    case 'unknown-place':
    case 'slot-started':
      return t('slotGone');
    case 'place-closed':
      return t('placeStateClosed');
    case 'already-booked':
      return problem.existingCode ? t('alreadyBookedCode', { code: problem.existingCode }) : t('alreadyBooked');
    case 'validation-failed':
      return t('formHasErrors');
    case 'waiting-room-required':
      return t('roomRequired');
    case 'waiting-room-not-admitted':
      return t('roomNotAdmitted');
    case 'waiting-room-admission-expired':
      return t('roomAdmissionExpired');
    case 'waiting-room-admission-used':
      return t('roomAdmissionUsed');
    default:
      return t('problem', { detail: problem.detail ?? problem.title ?? `HTTP ${problem.status}` });
  }
}
