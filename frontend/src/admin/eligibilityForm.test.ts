import { describe, expect, it } from 'vitest';
import { draftOf, eligibilityRequest, toLocalInput } from './eligibilityForm';

describe('eligibilityRequest', () => {
  it('sends everyone without steps, and an age rule with each step as a UTC instant', () => {
    expect(eligibilityRequest({ rule: 'everyone', steps: [{ opensAt: 'x', bornOnOrBefore: 'y' }] })).toEqual({ request: { rule: 'everyone' } });
    const opens = '2026-12-01T08:00';
    expect(eligibilityRequest({ rule: 'age', steps: [{ opensAt: opens, bornOnOrBefore: '1961-12-31' }] })).toEqual({
      request: { rule: 'age', steps: [{ opensAt: new Date(opens).toISOString().replace('.000Z', 'Z'), bornOnOrBefore: '1961-12-31' }] },
    });
  });

  it('names each wrong field, and asks an age rule for a step', () => {
    expect(eligibilityRequest({ rule: 'age', steps: [] })).toEqual({ errors: { steps: 'errStepsNeeded' } });
    expect(eligibilityRequest({ rule: 'age', steps: [{ opensAt: '2026-12-01T08:00', bornOnOrBefore: '' }, { opensAt: '', bornOnOrBefore: '1970-01-01' }] }))
      .toEqual({ errors: { 'steps[0].bornOnOrBefore': 'errStepBorn', 'steps[1].opensAt': 'errStepOpens' } });
  });

  it('fills the form in from the service as stored, the instant in the browser\'s clock', () => {
    const stored = new Date(2026, 11, 1, 8, 0).toISOString();
    expect(draftOf(undefined)).toEqual({ rule: 'everyone', steps: [] });
    expect(draftOf({ code: 'v', nameSk: 'V', nameEn: 'V', active: true, eligibility: { rule: 'age', steps: [{ opensAt: stored, bornOnOrBefore: '1960-01-01' }], acceptsInvitations: false } }))
      .toEqual({ rule: 'age', steps: [{ opensAt: '2026-12-01T08:00', bornOnOrBefore: '1960-01-01' }] });
    expect(toLocalInput(stored)).toBe('2026-12-01T08:00');
  });

  it('sends invitation holders only without steps, and an age rule that also takes codes with acceptsInvitations', () => {
    expect(eligibilityRequest({ rule: 'invitation', steps: [{ opensAt: '', bornOnOrBefore: '' }], acceptsInvitations: false }))
      .toEqual({ request: { rule: 'invitation' } });
    const opens = '2026-12-01T08:00';
    expect(eligibilityRequest({ rule: 'age', steps: [{ opensAt: opens, bornOnOrBefore: '1961-12-31' }], acceptsInvitations: true })).toEqual({
      request: { rule: 'age', steps: [{ opensAt: new Date(opens).toISOString().replace('.000Z', 'Z'), bornOnOrBefore: '1961-12-31' }], acceptsInvitations: true },
    });
    expect(eligibilityRequest({ rule: 'age', steps: [], acceptsInvitations: true })).toEqual({ errors: { steps: 'errStepsNeeded' } });
  });

  it('fills the form in from an invitation rule, and from an age rule that takes codes', () => {
    const service = { code: 'v', nameSk: 'V', nameEn: 'V', active: true };
    expect(draftOf({ ...service, eligibility: { rule: 'invitation', steps: [], acceptsInvitations: true } })).toEqual({ rule: 'invitation', steps: [] });
    const stored = new Date(2026, 11, 1, 8, 0).toISOString();
    expect(draftOf({ ...service, eligibility: { rule: 'age', steps: [{ opensAt: stored, bornOnOrBefore: '1960-01-01' }], acceptsInvitations: true } }))
      .toEqual({ rule: 'age', steps: [{ opensAt: '2026-12-01T08:00', bornOnOrBefore: '1960-01-01' }], acceptsInvitations: true });
  });
});
