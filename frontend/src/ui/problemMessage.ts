import type { Problem } from '../api/types';
import { formatDay } from '../booking/dates';
import type { Translate } from '../i18n/I18n';
import type { MessageKey } from '../i18n/messages';

/** Why an invitation code did not admit the person, as the not-eligible problem's reason says. */
const invitationRefusals: Partial<Record<NonNullable<Problem['reason']>, MessageKey>> = {
  'invitation-required': 'notEligibleInvitation',
  'invitation-unknown': 'invitationUnknown',
  'invitation-used': 'invitationUsed',
  'invitation-revoked': 'invitationRevoked',
};

/** What to tell a person about a refusal the screen has no special handling for; lang writes a day in a message. */
export function problemMessage(problem: Problem, t: Translate, lang = 'sk'): string {
  switch (problem.code) {
    case 'not-eligible':
      if (problem.reason === 'no-birth-date') return t('notEligibleNoBirthDate');
      if (problem.rule === 'invitation') return t((problem.reason && invitationRefusals[problem.reason]) ?? 'notEligibleInvitation');
      return problem.opensOn ? t('notYourTurnOn', { day: formatDay(problem.opensOn, lang, true) }) : t('notYourTurn');
    case 'reservation-not-found':
      return t('notFound');
    case 'reservation-cancelled':
      return t('reservationCancelled');
    case 'reservation-started':
      return t('reservationStarted');
    case 'reservation-checked-in':
      return t('reservationCheckedIn');
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
    case 'second-dose-full':
      return t('secondDoseFull');
    case 'second-dose-outside-interval':
      return t('secondDoseOutside');
    case 'no-second-dose':
      return t('noSecondDose');
    case 'pair-first-dose-fixed':
      return t('pairFirstDoseFixed');
    case 'reschedule-across-window':
      return t('rescheduleAcrossWindow');
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
