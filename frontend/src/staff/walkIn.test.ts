import { describe, expect, it } from 'vitest';
import type { Availability, WalkIn } from '../api/types';
import { staffTranslator } from './staffTexts';
import { attemptFor, emptyWalkIn, timeChoices, validateWalkIn, walkInOutcome, walkInProblemErrors, walkInRefusal, walkInRequest } from './walkIn';

const person = { ...emptyWalkIn('2030-01-02'), time: '08:20', name: ' Jana Nováková ', phone: '0905 123 456', nationalId: '9001011234' };
const oneService = { chooseService: false };
const [sk, en] = [staffTranslator('sk'), staffTranslator('en')];

describe('a walk-in form', () => {
  it('sends the confirmation SMS and does not check in unless asked', () => {
    expect(emptyWalkIn()).toMatchObject({ day: '', sms: true, checkIn: false, language: 'sk' });
  });

  it('needs a time and the person as the booking page does', () => {
    expect(validateWalkIn(person, oneService)).toEqual({});
    expect(validateWalkIn({ ...emptyWalkIn('2030-01-02'), phone: '12', nationalId: 'x' }, oneService)).toEqual({
      time: 'walkInErrTime', name: 'errName', phone: 'errPhone', nationalId: 'errNationalId',
    });
    expect(validateWalkIn({ ...person, day: '2.1.2030' }, oneService)).toEqual({ day: 'walkInErrDay' });
  });

  it('leaves the day to the API while the place\'s today is not known yet', () => {
    expect(validateWalkIn({ ...person, day: '' }, oneService)).toEqual({});
    expect(walkInRequest({ ...person, day: '' }, oneService).day).toBeUndefined();
  });

  it('asks for a service where the place offers several, and for a code where the service takes one', () => {
    expect(validateWalkIn(person, { chooseService: true })).toEqual({ service: 'walkInErrService' });
    expect(validateWalkIn({ ...person, service: 'flu' }, { chooseService: true, invitation: 'required' })).toEqual({ invitation: 'errInvitationRequired' });
    expect(validateWalkIn({ ...person, service: 'flu' }, { chooseService: true, invitation: 'accepted' })).toEqual({});
    expect(validateWalkIn({ ...person, invitation: 'ABCD' }, { chooseService: false, invitation: 'accepted' })).toEqual({ invitation: 'errInvitation' });
  });

  it('is sent trimmed, with the service and the code only where they count', () => {
    expect(JSON.stringify(walkInRequest({ ...person, service: 'flu', invitation: 'abcd-efgh-jkmn' }, oneService))).toBe(
      '{"day":"2030-01-02","time":"08:20","name":"Jana Nováková","phone":"0905 123 456","nationalId":"9001011234","language":"sk","sms":true,"checkIn":false}',
    );
    expect(walkInRequest({ ...person, service: 'flu', invitation: ' abcd-efgh-jkmn ', sms: false, checkIn: true, language: 'en' },
      { chooseService: true, invitation: 'accepted' })).toMatchObject({ service: 'flu', invitation: 'abcd-efgh-jkmn', sms: false, checkIn: true, language: 'en' });
  });
});

describe('a walk-in\'s Idempotency-Key', () => {
  const keys = () => {
    let n = 0;
    return () => `key-${++n}`;
  };

  it('stays while the same details are sent again, and changes with them', () => {
    const newKey = keys();
    const first = attemptFor(null, 7, walkInRequest(person, oneService), newKey);
    const retried = attemptFor(first, 7, walkInRequest(person, oneService), newKey);
    expect(retried.key).toBe('key-1');
    expect(attemptFor(retried, 7, walkInRequest({ ...person, time: '08:40' }, oneService), newKey).key).toBe('key-2');
    expect(attemptFor(retried, 8, walkInRequest(person, oneService), newKey).key).toBe('key-3');
  });

  it('is new after a booking, when the attempt is forgotten', () => {
    const newKey = keys();
    attemptFor(null, 7, walkInRequest(person, oneService), newKey);
    expect(attemptFor(null, 7, walkInRequest(person, oneService), newKey).key).toBe('key-2');
  });
});

describe('the times offered', () => {
  const availability = {
    placeId: 7, timeZone: 'Europe/Bratislava', from: '2030-01-02', to: '2030-01-03', service: 'default',
    days: [
      { day: '2030-01-02', slots: [{ time: '08:00', minutes: 10, capacity: 2, free: 0 }, { time: '08:20', minutes: 10, capacity: 2, free: 2 }] },
      { day: '2030-01-03', slots: [{ time: '09:00', minutes: 10, capacity: 2, free: 1 }] },
    ],
  } satisfies Availability;

  it('are the day\'s slots with a free seat', () => {
    expect(timeChoices(availability, '2030-01-02', '')).toEqual([{ time: '08:20', free: 2 }]);
    expect(timeChoices(availability, '2030-01-03', '')).toEqual([{ time: '09:00', free: 1 }]);
    expect(timeChoices(availability, '2030-01-04', '')).toEqual([]);
    expect(timeChoices(undefined, '2030-01-02', '')).toEqual([]);
  });

  it('keep the chosen time once it has filled up or gone', () => {
    expect(timeChoices(availability, '2030-01-02', '08:00')).toEqual([{ time: '08:00', free: 0 }, { time: '08:20', free: 2 }]);
    expect(timeChoices(availability, '2030-01-02', '07:00').map((c) => c.time)).toEqual(['07:00', '08:20']);
  });
});

describe('the API\'s refusal of a walk-in', () => {
  it('is shown beside each field it names', () => {
    expect(walkInProblemErrors({ status: 400, code: 'validation-failed', errors: { nationalId: ['x'], Time: ['y'], '$.phone': ['z'], 'Idempotency-Key': ['k'] } }))
      .toEqual({ nationalId: 'errNationalId', time: 'walkInErrTime', phone: 'errPhone' });
    expect(walkInProblemErrors({ status: 409, code: 'already-booked' })).toEqual({});
  });

  it('says what happened in the staff\'s words', () => {
    expect(walkInRefusal({ status: 409, code: 'already-booked', existingCode: 'ABCDE-FGHJK' }, sk, 'sk'))
      .toBe('Na tieto údaje už existuje rezervácia s kódom ABCDE-FGHJK.');
    expect(walkInRefusal({ status: 409, code: 'slot-full' }, en, 'en')).toBe('This time has just filled up. Choose another time.');
    expect(walkInRefusal({ status: 403, code: 'place-forbidden' }, sk, 'sk')).toBe('Toto miesto nie je priradené vášmu účtu.');
    expect(walkInRefusal({ status: 403, code: 'not-eligible', rule: 'invitation', reason: 'invitation-used' }, sk, 'sk'))
      .toBe(sk('invitationUsed'));
    expect(walkInRefusal({ status: 409, code: 'place-closed' }, en, 'en')).toBe('The place is closed to new bookings.');
    expect(walkInRefusal({ status: 404, code: 'unknown-service' }, sk, 'sk')).toBe('Toto miesto túto službu neponúka.');
  });
});

describe('a walk-in\'s outcome', () => {
  const walkIn = (sms: boolean, checkIn?: WalkIn['checkIn']): WalkIn => ({
    reservation: {
      code: 'ABCDE-FGHJK', placeId: 7, placeName: 'P', address: 'A', day: '2030-01-02', time: '08:20', minutes: 10, name: 'Jana', state: 'booked', service: 'default',
    },
    sms,
    checkIn,
  });

  it('says whether the SMS went and how the check-in went; a refused check-in leaves the booking standing', () => {
    expect(walkInOutcome(walkIn(true), sk)).toEqual({ sms: 'Potvrdzujúca SMS bola odoslaná.' });
    expect(walkInOutcome(walkIn(false, 'checked-in'), en)).toEqual({ sms: 'No SMS was sent.', checkIn: { kind: 'success', text: 'Checked in.' } });
    expect(walkInOutcome(walkIn(true, 'too-early'), sk).checkIn)
      .toEqual({ kind: 'info', text: 'Príchod zatiaľ nemožno zaregistrovať: priskoro, termín začína o 08:20. Rezervácia platí.' });
    expect(walkInOutcome(walkIn(true, 'too-late'), en).checkIn?.text).toBe('Not checked in: the appointment started at 08:20, too long ago. The booking stands.');
    expect(walkInOutcome(walkIn(true, 'other-day'), en).checkIn?.kind).toBe('info');
  });
});
