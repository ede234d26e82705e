import { describe, expect, it } from 'vitest';
import {
  emptyOffer, emptyService, newService, offerProblemErrors, serviceDraft, serviceEdit, serviceOffer, serviceProblemErrors, validateOffer,
  validateService,
} from './serviceForms';
import { serviceTranslator } from './serviceTexts';

const antigen = { ...emptyService, code: 'antigen', nameSk: ' Antigénový test ', nameEn: 'Antigen test' };

describe('a new service', () => {
  it('needs a code of lower-case letters, digits or dashes and both names', () => {
    expect(validateService(antigen)).toEqual({});
    expect(validateService({ ...antigen, code: 'Antigen', nameSk: ' ', nameEn: 'x'.repeat(101) }))
      .toEqual({ code: 'errServiceCode', nameSk: 'errServiceName', nameEn: 'errServiceName' });
    expect(validateService({ ...antigen, code: 'a'.repeat(33) })).toEqual({ code: 'errServiceCode' });
    expect(validateService({ ...antigen, code: 'vaccine-2' })).toEqual({});
  });

  it('with two doses needs 1 to 365 days, the most not below the fewest', () => {
    const vaccine = { ...antigen, twoDoses: true };
    expect(validateService({ ...vaccine, minDays: '21', maxDays: '42' })).toEqual({});
    expect(validateService({ ...vaccine, minDays: '0', maxDays: '366' })).toEqual({ minDays: 'errDoseDays', maxDays: 'errDoseDays' });
    expect(validateService({ ...vaccine, minDays: '42', maxDays: '21' })).toEqual({ maxDays: 'errDoseOrder' });
    expect(validateService({ ...vaccine, minDays: '2.5', maxDays: '' })).toEqual({ minDays: 'errDoseDays', maxDays: 'errDoseDays' });
    // Days typed and then unticked are not checked, nor sent.
    expect(validateService({ ...antigen, minDays: 'x' })).toEqual({});
  });

  it('is sent trimmed, with the second dose only where it has one', () => {
    expect(JSON.stringify(newService(antigen))).toBe('{"code":"antigen","nameSk":"Antigénový test","nameEn":"Antigen test","active":true}');
    expect(newService({ ...antigen, twoDoses: true, minDays: '21', maxDays: '42', active: false }))
      .toEqual({ code: 'antigen', nameSk: 'Antigénový test', nameEn: 'Antigen test', secondDose: { minDays: 21, maxDays: 42 }, active: false });
  });
});

describe('a change of a service', () => {
  it('keeps its second dose (a change sets every field) and has no code in the body', () => {
    const listed = { code: 'vaccine', nameSk: 'Očkovanie', nameEn: 'Vaccination', secondDose: { minDays: 21, maxDays: 42 } };
    expect(serviceEdit(serviceDraft(listed))).toEqual({ nameSk: 'Očkovanie', nameEn: 'Vaccination', secondDose: { minDays: 21, maxDays: 42 }, active: true });
    expect(serviceEdit({ ...serviceDraft({ code: 'pcr', nameSk: 'PCR', nameEn: 'PCR' }), active: false }))
      .toEqual({ nameSk: 'PCR', nameEn: 'PCR', secondDose: undefined, active: false });
  });
});

describe('an offer at a place', () => {
  it('needs seats and a template the API takes', () => {
    expect(validateOffer(emptyOffer)).toEqual({});
    expect(validateOffer({ ...emptyOffer, seats: '0', firstStart: '8:00', lastStart: '25:00', interval: '4', length: '721' }))
      .toEqual({ seats: 'errSeats', firstStart: 'errTime', lastStart: 'errTime', interval: 'errMinutes', length: 'errMinutes' });
    expect(validateOffer({ ...emptyOffer, firstStart: '10:00', lastStart: '09:45' })).toEqual({ lastStart: 'errLastStart' });
    expect(validateOffer({ ...emptyOffer, firstStart: '10:00', lastStart: '10:00' })).toEqual({});
  });

  it('is sent with its seats and template, also when it stops, so offering it again needs no retyping', () => {
    expect(serviceOffer({ ...emptyOffer, service: 'pcr', seats: '3', firstStart: '08:00', lastStart: '10:00', interval: '30', length: '20' }))
      .toEqual({ seats: 3, template: { firstStart: '08:00', lastStart: '10:00', intervalMinutes: 30, lengthMinutes: 20 }, active: true });
    expect(serviceOffer({ ...emptyOffer, active: false })).toMatchObject({ seats: 4, active: false });
  });
});

describe('the API\'s refusal', () => {
  it('of a service is shown beside each field it names, the JSON reader\'s paths too', () => {
    expect(serviceProblemErrors({
      status: 400, code: 'validation-failed',
      errors: { code: ['taken'], nameSk: ['x'], 'secondDose.minDays': ['x'], 'secondDose.maxDays': ['x'], other: ['y'] },
    })).toEqual({ code: 'errServiceCode', nameSk: 'errServiceName', minDays: 'errDoseDays', maxDays: 'errDoseDays' });
    expect(serviceProblemErrors({ status: 400, errors: { '$.nameEn': ['bad'] } })).toEqual({ nameEn: 'errServiceName' });
    expect(serviceProblemErrors({ status: 404, code: 'unknown-service' })).toEqual({});
  });

  it('of an offer is shown beside each field it names', () => {
    expect(offerProblemErrors({
      status: 400,
      errors: { seats: ['x'], 'template.firstStart': ['x'], 'template.lastStart': ['x'], 'template.intervalMinutes': ['x'], 'template.lengthMinutes': ['x'] },
    })).toEqual({ seats: 'errSeats', firstStart: 'errTime', lastStart: 'errTime', interval: 'errMinutes', length: 'errMinutes' });
    expect(offerProblemErrors({ status: 400, errors: { '$.seats': ['not a number'], id: ['x'] } })).toEqual({ seats: 'errSeats' });
  });
});

describe('the service screens\' texts', () => {
  it('exist in both languages with the same values to fill in', () => {
    const [sk, en] = [serviceTranslator('sk'), serviceTranslator('en')];
    expect(sk('offerSaved', { code: 'pcr', state: sk('offerStateOn'), seats: 3, first: '08:00', last: '10:00', interval: 30, length: 20 }))
      .toBe('Ponuka služby pcr: ponúka sa, miest v termíne: 3, 08:00 – 10:00 každých 30 min, dĺžka 20 min.');
    expect(en('serviceDosesTwo', { min: 21, max: 42 })).toBe('2 (after 21 – 42 days)');
    expect(sk('placeNumber')).toBe('Číslo miesta');
  });
});
