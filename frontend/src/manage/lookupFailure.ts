import { ApiError } from '../api/http';
import type { Problem } from '../api/types';
import type { Translate } from '../i18n/messages';
import { problemMessage } from '../ui/problemMessage';

/**
 * Why a lookup found nothing to show. A cancelled reservation is its own case: only its owner learns
 * of it (410 reservation-cancelled; anyone else gets 404), and what they need next is a new booking.
 */
export type LookupFailure =
  | { kind: 'cancelled'; code: string }
  | { kind: 'problem'; problem: Problem }
  | { kind: 'unreachable' };

export function lookupFailure(error: unknown, code: string): LookupFailure {
  if (!(error instanceof ApiError)) return { kind: 'unreachable' };
  return error.code === 'reservation-cancelled' ? { kind: 'cancelled', code } : { kind: 'problem', problem: error.problem };
}

/** The failure in the person's language, rendered when shown so a language switch follows it. */
export function lookupFailureText(failure: LookupFailure, t: Translate): string {
  switch (failure.kind) {
    case 'cancelled':
      return t('lookupCancelled', { code: failure.code });
    case 'problem':
      return problemMessage(failure.problem, t);
    case 'unreachable':
      return t('loadFailed');
  }
}
