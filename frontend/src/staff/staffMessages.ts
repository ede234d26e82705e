import { ApiError } from '../api/http';
import type { CheckIn, Language, Problem, StaffRole } from '../api/types';
import type { StaffKey, StaffTranslate } from './staffTexts';
import type { MessageKey } from '../i18n/messages';

/** A clock time as the door reads it (24-hour, the browser's zone: the desk's device is at the place). */
export function clockTime(iso: string, lang: Language, timeZone?: string): string {
  return new Date(iso).toLocaleTimeString(lang === 'en' ? 'en-GB' : 'sk-SK', { hour: '2-digit', minute: '2-digit', timeZone });
}

/** The door's answer to a check-in that went through: checked in now, or already before (when and by whom). */
export function checkInMessage(result: CheckIn, t: StaffTranslate, lang: Language, timeZone?: string): string {
  const values = { name: result.name, time: result.time, at: clockTime(result.at, lang, timeZone), by: result.by };
  return t(result.alreadyCheckedIn ? 'alreadyCheckedIn' : 'checkedIn', values);
}

/** Each refusal at the door in plain words; the slot's start when the API names it. */
export function checkInRefusal(problem: Problem, t: StaffTranslate): string {
  const time = (problem as { time?: string }).time;
  switch (problem.code) {
    case 'check-in-cancelled':
      return t('ciCancelled');
    case 'check-in-other-place':
      return t('ciOtherPlace');
    case 'check-in-other-day':
      return time ? t('ciOtherDayAt', { time }) : t('ciOtherDay');
    case 'check-in-too-early':
      return time ? t('ciTooEarlyAt', { time }) : t('ciTooEarly');
    case 'check-in-too-late':
      return time ? t('ciTooLateAt', { time }) : t('ciTooLate');
    case 'check-in-not-the-person':
      return t('ciNotThePerson');
    case 'reservation-not-found':
      return t('ciNotFound');
    case 'validation-failed':
      return t('ciInvalid');
    default:
      return staffProblem(problem, t);
  }
}

/** A refusal any staff call can meet: signed out, a role or place not allowed, or something else. */
export function staffProblem(problem: Problem, t: StaffTranslate): string {
  if (problem.status === 401) return t('tokenRejected');
  if (problem.code === 'place-forbidden') return t('placeForbidden');
  if (problem.status === 403) return t('staffForbidden');
  return t('problem', { detail: problem.detail ?? problem.title ?? `HTTP ${problem.status}` });
}

/** What to tell the member about a failed staff call; a dropped connection is not the API's answer. */
export function staffError(error: unknown, t: StaffTranslate): string {
  return error instanceof ApiError ? staffProblem(error.problem, t) : t('loadFailed');
}

/** Whether the failure means the token no longer holds, so the member must sign in again. */
export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiError && error.problem.status === 401;
}

const roleKeys: Record<StaffRole, MessageKey | StaffKey> = { 'site-staff': 'roleSiteStaff', 'site-manager': 'roleSiteManager', admin: 'roleAdmin' };

export function roleName(role: StaffRole, t: StaffTranslate): string {
  return t(roleKeys[role]);
}

/** Site managers and admins export the roster and read the audit trail; site staff do not. */
export function isManager(role: StaffRole): boolean {
  return role === 'site-manager' || role === 'admin';
}

/** A booking code out of what a QR code or a hand typed: the code itself, or the first code-shaped part. */
export function codeFromText(text: string): string {
  const found = /[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}/.exec(text);
  return (found ? found[0] : text).trim().toUpperCase();
}
