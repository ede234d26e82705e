import type { AdminService, SetEligibility } from '../api/types';

/** One age step as typed: opensAt from a datetime-local field (the admin's own clock), bornOnOrBefore a date. */
export interface StepDraft {
  opensAt: string;
  bornOnOrBefore: string;
}

export interface EligibilityDraft {
  rule: 'everyone' | 'age' | 'invitation';
  steps: StepDraft[];
  /** With age: a valid invitation code also admits a person whose step has not opened yet. */
  acceptsInvitations?: boolean;
}

export type EligibilityError = 'errStepOpens' | 'errStepBorn' | 'errStepsNeeded';

const day = /^\d{4}-\d{2}-\d{2}$/;
const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** A datetime-local value ("2026-12-01T08:00") as the input shows it for an instant, in the browser's zone. */
export function toLocalInput(instant: string): string {
  const at = new Date(instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** The form filled in from what the service has now: its rule (with steps, and codes, for age), or everyone. */
export function draftOf(service: AdminService | undefined): EligibilityDraft {
  const who = service?.eligibility;
  if (who?.rule === 'invitation') return { rule: 'invitation', steps: [] };
  if (!who || who.rule !== 'age') return { rule: 'everyone', steps: [] };
  return {
    rule: 'age',
    steps: who.steps.map((s) => ({ opensAt: toLocalInput(s.opensAt), bornOnOrBefore: s.bornOnOrBefore })),
    ...(who.acceptsInvitations ? { acceptsInvitations: true } : {}),
  };
}

/**
 * The request the draft stands for, or the errors by field ("steps", "steps[1].opensAt"): an age rule
 * needs at least one step, each with a moment (read in the browser's zone and sent with its offset as
 * UTC) and a birth date, and says acceptsInvitations only when codes also admit (false when left out);
 * everyone and invitation send no steps.
 */
export function eligibilityRequest(draft: EligibilityDraft): { request: SetEligibility } | { errors: Record<string, EligibilityError> } {
  if (draft.rule !== 'age') return { request: { rule: draft.rule } };
  const errors: Record<string, EligibilityError> = {};
  if (draft.steps.length === 0) errors.steps = 'errStepsNeeded';
  const steps = draft.steps.map((s, i) => {
    const opens = local.test(s.opensAt) ? new Date(s.opensAt) : null;
    if (!opens || Number.isNaN(opens.getTime())) errors[`steps[${i}].opensAt`] = 'errStepOpens';
    if (!day.test(s.bornOnOrBefore)) errors[`steps[${i}].bornOnOrBefore`] = 'errStepBorn';
    return { opensAt: opens && !Number.isNaN(opens.getTime()) ? opens.toISOString().replace(/\.\d{3}Z$/, 'Z') : '', bornOnOrBefore: s.bornOnOrBefore };
  });
  if (Object.keys(errors).length > 0) return { errors };
  return { request: { rule: 'age', steps, ...(draft.acceptsInvitations ? { acceptsInvitations: true } : {}) } };
}
