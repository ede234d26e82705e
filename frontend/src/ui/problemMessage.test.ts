import { describe, expect, it } from 'vitest';
import { translator } from '../i18n/messages';
import { problemMessage } from './problemMessage';

const notEligible = { status: 403, code: 'not-eligible' as const };

describe('problemMessage for not-eligible', () => {
  it('says when the person\'s age group opens, in their language', () => {
    expect(problemMessage({ ...notEligible, rule: 'age', reason: 'too-young', opensOn: '2026-12-08' }, translator('en'), 'en'))
      .toBe('It is not your turn for this service yet: it opens by age, oldest first. Your age group can book from Tuesday, 8 December 2026.');
    expect(problemMessage({ ...notEligible, rule: 'age', reason: 'too-young', opensOn: '2026-12-08' }, translator('sk'), 'sk'))
      .toContain('si môže rezervovať od: utorok 8. decembra 2026.');
  });

  it('says the turn is not announced, the number is no birth number, or a code is needed', () => {
    expect(problemMessage({ ...notEligible, rule: 'age', reason: 'too-young' }, translator('en'), 'en')).toContain('has not been announced yet');
    expect(problemMessage({ ...notEligible, rule: 'age', reason: 'no-birth-date' }, translator('en'), 'en')).toContain('not a birth number');
    expect(problemMessage({ ...notEligible, rule: 'invitation', reason: 'invitation-required' }, translator('en'), 'en')).toContain('invitation code');
  });

  it('says what is wrong with an invitation code: none given, unknown, used, or withdrawn', () => {
    const invitation = (reason: string, lang: 'sk' | 'en') =>
      problemMessage({ ...notEligible, rule: 'invitation', reason: reason as never }, translator(lang), lang);
    expect(invitation('invitation-required', 'en')).toBe('Only people with an invitation code can book this service. Please enter your code.');
    expect(invitation('invitation-unknown', 'en')).toContain('We do not know this invitation code');
    expect(invitation('invitation-used', 'en')).toContain('already been used');
    expect(invitation('invitation-revoked', 'en')).toContain('no longer valid');
    expect(invitation('invitation-used', 'sk')).toContain('už bol použitý');
    expect(invitation('invitation-revoked', 'sk')).toContain('už neplatí');
    // A reason this page does not know yet still says that a code is needed.
    expect(invitation('invitation-expired', 'en')).toContain('invitation code');
  });
});

describe('problemMessage for two-dose bookings', () => {
  const say = (code: string, lang: 'sk' | 'en') => problemMessage({ status: 409, code: code as never }, translator(lang), lang);

  it('says no second seat is free and nothing was booked, and what to do', () => {
    expect(say('second-dose-full', 'en')).toBe('No seat is free for the second dose in its interval, so nothing was booked. '
      + 'Choose another time for the first dose, or another place.');
    expect(say('second-dose-full', 'sk')).toContain('nezarezervovali nič');
  });

  it('says the second dose must stay in its interval at the place, that a service has none, and that the first dose stays', () => {
    expect(say('second-dose-outside-interval', 'en')).toContain('within the interval after the first dose');
    expect(say('second-dose-outside-interval', 'sk')).toContain('v deň z intervalu po prvej dávke');
    expect(say('no-second-dose', 'en')).toContain('one appointment only');
    expect(say('no-second-dose', 'sk')).toContain('len jeden termín');
    expect(say('pair-first-dose-fixed', 'en')).toContain('The first dose cannot be moved.');
    expect(say('pair-first-dose-fixed', 'sk')).toContain('Prvá dávka sa presunúť nedá.');
    expect(say('reschedule-across-window', 'en')).toContain('cannot be moved that far');
  });
});

describe('problemMessage for a booking the door has checked in', () => {
  it('says it can be neither cancelled nor moved, in the person\'s language', () => {
    const say = (lang: 'sk' | 'en') => problemMessage({ status: 409, code: 'reservation-checked-in' }, translator(lang), lang);
    expect(say('en')).toBe('You have already been checked in at the place, so this booking can no longer be cancelled or moved.');
    expect(say('sk')).toContain('nie je možné zrušiť ani presunúť');
  });
});
