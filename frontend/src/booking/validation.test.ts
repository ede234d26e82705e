import { describe, expect, it } from 'vitest';
import { isInvitationCode, validateCode, validateInvitation, validateNationalId, validatePerson, validatePhone } from './validation';

describe('person validation', () => {
  it('accepts the phone forms the API accepts', () => {
    for (const phone of ['+421 905 123 456', '0905 123 456', '00421905123456', '0905-123-456']) {
      expect(validatePhone(phone)).toBeUndefined();
    }
  });

  it('rejects what is not a phone number', () => {
    expect(validatePhone('')).toBe('errPhoneRequired');
    for (const phone of ['905 123 456', '12', 'call me', '+0905123456']) {
      expect(validatePhone(phone)).toBe('errPhone');
    }
  });

  it('ignores spaces, slashes and dashes in a national id', () => {
    expect(validateNationalId('900101/1234')).toBeUndefined();
    expect(validateNationalId('12345')).toBe('errNationalId');
    expect(validateNationalId('')).toBe('errNationalIdRequired');
  });

  it('reports every field at once', () => {
    expect(validatePerson({ name: ' ', phone: 'x', nationalId: '' })).toEqual({
      name: 'errName', phone: 'errPhone', nationalId: 'errNationalIdRequired',
    });
  });

  it('accepts a booking code with or without the dash', () => {
    expect(validateCode('ABCDE-FGHJK')).toBe(true);
    expect(validateCode('abcdefghjk')).toBe(true);
    expect(validateCode('ABC-DEF')).toBe(false);
  });
});

describe('invitation code', () => {
  it('reads a code as the API does: any case, dashes and spaces ignored, I, L and O for 1, 1 and 0', () => {
    for (const code of ['ABCD-EFGH-JKMN', 'abcd efgh jkmn', 'ABCDEFGHJKMN', ' 0123-4567-89AB ', 'ILO1-ILO1-ILO1', 'a-b-c-d-e-f-g-h-j-k-m-n']) {
      expect(isInvitationCode(code), code).toBe(true);
    }
  });

  it('refuses what cannot be one: a U, another symbol, too few or too many', () => {
    for (const code of ['ABCD-EFGH-JKMU', 'ABCD-EFGH-JKM!', 'ABCD-EFGH-JKM', 'ABCD-EFGH-JKMNP', 'ÁBCD-EFGH-JKMN', '', `ABCDEFGHJKMN${' '.repeat(30)}`]) {
      expect(isInvitationCode(code), code).toBe(false);
    }
  });

  it('asks for a code only where the service requires one', () => {
    expect(validateInvitation(' ', true)).toBe('errInvitationRequired');
    expect(validateInvitation('', false)).toBeUndefined();
    expect(validateInvitation('ABCD-EFGH', false)).toBe('errInvitation');
    expect(validateInvitation('abcd-efgh-jkmn', true)).toBeUndefined();
  });
});
