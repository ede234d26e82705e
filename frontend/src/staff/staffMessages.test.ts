import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import type { Problem } from '../api/types';
import { staffTranslator as translator } from './staffTexts';
import { checkInMessage, checkInRefusal, codeFromText, isManager, isSignedOut, staffError } from './staffMessages';

const sk = translator('sk');
const en = translator('en');
const refusal = (code: Problem['code'], status = 409, extra: object = {}) => ({ code, status, title: 't', ...extra }) as Problem;

describe('the door', () => {
  it('says who checked a person in and when, in the place\'s clock', () => {
    const result = { code: 'ABCDE-FGHJK', time: '10:30', name: 'Jana Testová', alreadyCheckedIn: false, at: '2026-03-02T09:31:00Z', by: 'nurse-1' };
    expect(checkInMessage(result, en, 'en', 'Europe/Bratislava')).toBe('Jana Testová (10:30) – checked in at 10:31 by nurse-1.');
    expect(checkInMessage({ ...result, alreadyCheckedIn: true }, sk, 'sk', 'Europe/Bratislava'))
      .toBe('Jana Testová (10:30): príchod už bol zaregistrovaný o 10:31, nurse-1.');
  });

  it.each([
    ['check-in-cancelled', {}, 'This booking was cancelled; it cannot be checked in.'],
    ['check-in-other-place', {}, 'This booking is for another place.'],
    ['check-in-other-day', { time: '09:00' }, 'This booking is for another day (at 09:00).'],
    ['check-in-too-early', { time: '14:00' }, 'Too early: the appointment starts at 14:00.'],
    ['check-in-too-late', { time: '08:00' }, 'Too late: the appointment started at 08:00.'],
    ['check-in-too-late', {}, 'Too late: the appointment started too long ago.'],
    ['check-in-not-the-person', {}, 'The national id does not belong to the booked person.'],
  ] as const)('puts %s in plain words', (code, extra, text) => {
    expect(checkInRefusal(refusal(code, 409, extra), en)).toBe(text);
  });

  it('tells an unknown code, a place not the member\'s, and a token that no longer holds apart', () => {
    expect(checkInRefusal(refusal('reservation-not-found', 404), en)).toBe('There is no booking with this code.');
    expect(checkInRefusal(refusal('place-forbidden', 403), en)).toBe('This place is not one of yours.');
    expect(checkInRefusal(refusal('forbidden', 403), en)).toBe('Your role may not do this.');
    expect(checkInRefusal(refusal('unauthenticated', 401), sk)).toBe('Token nebol prijatý alebo platnosť prihlásenia vypršala. Prihláste sa znova.');
  });

  it('reads a dropped connection as such, and only a 401 as signed out', () => {
    expect(staffError(new TypeError('Failed to fetch'), en)).toBe('Could not load the data. Please try again.');
    expect(isSignedOut(new ApiError({ status: 401 }))).toBe(true);
    expect(isSignedOut(new ApiError({ status: 403 }))).toBe(false);
  });

  it('finds the booking code in what a QR code or a hand gave', () => {
    expect(codeFromText('abcde-fghjk')).toBe('ABCDE-FGHJK');
    expect(codeFromText(' ABCDEFGHJK\n')).toBe('ABCDEFGHJK');
    expect(codeFromText('SLOTS:ABCDE-FGHJK')).toBe('ABCDE-FGHJK');
  });

  it('lets managers and admins export and audit, not site staff', () => {
    expect([isManager('site-staff'), isManager('site-manager'), isManager('admin')]).toEqual([false, true, true]);
  });
});
