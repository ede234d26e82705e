import { ApiError } from '../api/http';
import type { Translate } from '../i18n/I18n';

/** A staff-facing message for a failed admin call, with the API's field messages when it has them. */
export function adminError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t('loadFailed');
  const { problem } = error;
  if (problem.status === 401) return t('adminSignedOut');
  if (problem.status === 403) return t('adminForbidden');
  if (problem.errors) {
    const fields = Object.entries(problem.errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
    return `${t('invalidInput')} ${fields.join('; ')}`;
  }
  return t('problem', { detail: problem.detail ?? problem.title ?? `HTTP ${problem.status}` });
}
