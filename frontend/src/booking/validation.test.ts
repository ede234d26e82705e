import { describe, expect, it } from 'vitest';
import { validateCode, validateNationalId, validatePerson, validatePhone } from './validation';

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
