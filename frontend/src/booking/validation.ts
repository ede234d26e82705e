import type { MessageKey } from '../i18n/messages';
import type { Person } from '../api/types';

// Mirrors the API's rules so most mistakes are caught while typing; the API still decides.

export type PersonErrors = Partial<Record<keyof Person, MessageKey>>;

export function validateName(name: string): MessageKey | undefined {
  const trimmed = name.trim();
  return trimmed.length === 0 || trimmed.length > 100 ? 'errName' : undefined;
}

export function validatePhone(phone: string): MessageKey | undefined {
  if (phone.trim() === '') return 'errPhoneRequired';
  if (!/^\+?[\d ()/.-]{1,32}$/.test(phone.trim())) return 'errPhone';
  const digits = phone.replace(/\D/g, '');
  const plus = phone.trim().startsWith('+');
  const international = plus ? digits : digits.startsWith('00') ? digits.slice(2) : digits.startsWith('0') ? `421${digits.slice(1)}` : '';
  return international.length >= 8 && international.length <= 15 && !international.startsWith('0') ? undefined : 'errPhone';
}

export function validateNationalId(id: string): MessageKey | undefined {
  if (id.trim() === '') return 'errNationalIdRequired';
  return /^[A-Za-z0-9]{6,20}$/.test(id.replace(/[ /.-]/g, '')) ? undefined : 'errNationalId';
}

export const personRules: Record<keyof Person, (value: string) => MessageKey | undefined> = {
  name: validateName,
  phone: validatePhone,
  nationalId: validateNationalId,
};

export function validatePerson(person: Person): PersonErrors {
  const errors: PersonErrors = {};
  for (const field of Object.keys(personRules) as (keyof Person)[]) {
    const error = personRules[field](person[field]);
    if (error) errors[field] = error;
  }
  return errors;
}

/**
 * Whether the text can be an invitation code: 12 symbols of Crockford's base32 (digits and letters
 * but U; I, L and O are read as 1, 1 and 0), any case, dashes and spaces ignored, as the API reads it
 * (InvitationCode.Normalize). Whether the code exists, and is unspent, only the API knows.
 */
export function isInvitationCode(code: string): boolean {
  return code.length <= 40 && /^[0-9A-TV-Z]{12}$/i.test(code.replace(/[ -]/g, ''));
}

/** The invitation field's rule: empty is fine only where the service merely accepts codes. */
export function validateInvitation(code: string, required: boolean): MessageKey | undefined {
  if (code.trim() === '') return required ? 'errInvitationRequired' : undefined;
  return isInvitationCode(code) ? undefined : 'errInvitation';
}

export function validateCode(code: string): boolean {
  return /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/.test(code.trim());
}
