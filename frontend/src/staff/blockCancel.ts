import type { RosterQuery } from '../api/staffApi';
import type { CancelBlockRequest, Problem } from '../api/types';
import type { StaffKey } from './staffTexts';

/** What the member typed: a day, an optional start range, and the reason every person reads in the SMS. */
export interface BlockDraft {
  day: string;
  from: string;
  to: string;
  reason: string;
}

export type BlockField = keyof BlockDraft;
export type BlockErrors = Partial<Record<BlockField, StaffKey>>;

export const reasonMax = 100;

/** The day as the desk's device has it (it stands at the place), yyyy-MM-dd. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The minute before an HH:mm time ("00:00" has none). */
export function minuteBefore(time: string): string | undefined {
  const match = /^(\d\d):(\d\d)$/.exec(time);
  if (!match) return undefined;
  const minutes = Number(match[1]) * 60 + Number(match[2]) - 1;
  if (minutes < 0) return undefined;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Mirrors the API's rules so the member hears of a mistake before the confirmation; the API still decides. */
export function validateBlock(draft: BlockDraft): BlockErrors {
  const errors: BlockErrors = {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.day)) errors.day = 'blockErrDay';
  if (draft.from && !/^\d\d:\d\d$/.test(draft.from)) errors.from = 'blockErrTime';
  if (draft.to && !/^\d\d:\d\d$/.test(draft.to)) errors.to = 'blockErrTime';
  else if (draft.to && draft.to <= (draft.from || '00:00')) errors.to = 'blockErrToAfterFrom';
  const reason = draft.reason.trim();
  if (reason.length === 0 || reason.length > reasonMax) errors.reason = 'blockErrReason';
  return errors;
}

export function blockRequest(draft: BlockDraft): CancelBlockRequest {
  return { day: draft.day, from: draft.from || undefined, to: draft.to || undefined, reason: draft.reason.trim() };
}

/**
 * The roster query whose total is the number of bookings the block cancels: booked ones (checked-in
 * ones are kept) starting in [from, to). The roster's `to` takes starts up to and including it, the
 * block's stops before it; slot times are whole minutes, so the roster is asked up to the minute
 * before. A booking whose slot has already started is counted though the API leaves it be: the
 * result says what was done.
 */
export function affectedQuery(draft: BlockDraft): RosterQuery {
  return { day: draft.day, from: draft.from || undefined, to: draft.to ? minuteBefore(draft.to) : undefined, state: 'booked', pageSize: 1 };
}

/** The confirmation's question for this many bookings (Slovak has a form for 1, for 2 to 4, and for 5 and more). */
export function confirmKey(count: number): StaffKey {
  if (count === 0) return 'blockConfirmNone';
  if (count === 1) return 'blockConfirmOne';
  return count <= 4 ? 'blockConfirmFew' : 'blockConfirmMany';
}

/** The fields a 400 from the API names (its `errors`), each with the text to show beside it. */
export function blockProblemErrors(problem: Problem): BlockErrors {
  const errors: BlockErrors = {};
  for (const key of Object.keys(problem.errors ?? {})) {
    const field = key.replace(/^\$\.?/, '').toLowerCase();
    if (field === 'day') errors.day = 'blockErrDay';
    else if (field === 'from' || field === 'to') errors[field] = 'blockErrTime';
    else if (field === 'reason') errors.reason = 'blockErrReason';
  }
  return errors;
}
