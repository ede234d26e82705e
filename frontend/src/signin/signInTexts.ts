import { useMemo } from 'react';
import type { Language } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { en, type MessageKey, sk } from '../i18n/messages';

// Signing in through the provider, the same for the staff and the admin screens, Slovak and English;
// in their chunks only, as the citizen never signs in.

export const signInSk = {
  staffSignInLead: 'Prihláste sa účtom pracoviska. Prihlásenie platí len v tejto karte prehliadača.',
  staffSignIn: 'Prihlásiť sa účtom pracoviska',
  staffSigningIn: 'Prihlasuje sa…',
  staffSignInFailed: 'Prihlásenie sa nepodarilo ({detail}). Skúste to znova.',
  devToken: 'Vývojový token',
  devTokenHint: 'Token z ./slots staff token. Zostane len v tejto karte prehliadača.',
  useToken: 'Použiť token',
  tokenRejected: 'Token nebol prijatý alebo platnosť prihlásenia vypršala. Prihláste sa znova.',
  signedInAs: 'Prihlásený: {subject} ({role})',
  roleSiteStaff: 'personál miesta',
  roleSiteManager: 'vedúci miesta',
  roleAdmin: 'správca',
  roleViewer: 'prehliadanie štatistík',
  missingRole: 'Účet {subject} nemá rolu správcu ani prehliadania štatistík (admin alebo viewer), preto túto časť nemôže otvoriť. Požiadajte správcu prihlasovania o rolu alebo sa prihláste iným účtom.',
};

export type SignInKey = keyof typeof signInSk;

export const signInEn: Record<SignInKey, string> = {
  staffSignInLead: 'Sign in with your site account. The sign-in lasts only for this browser tab.',
  staffSignIn: 'Sign in with your site account',
  staffSigningIn: 'Signing in…',
  staffSignInFailed: 'Sign-in failed ({detail}). Please try again.',
  devToken: 'Development token',
  devTokenHint: 'A token from ./slots staff token. It is kept only in this browser tab.',
  useToken: 'Use token',
  tokenRejected: 'The token was not accepted or the sign-in has expired. Please sign in again.',
  signedInAs: 'Signed in as {subject} ({role})',
  roleSiteStaff: 'site staff',
  roleSiteManager: 'site manager',
  roleAdmin: 'admin',
  roleViewer: 'statistics viewer',
  missingRole: 'The account {subject} holds neither the admin nor the viewer role, so it cannot open this part. Ask whoever manages sign-in for the role, or sign in with another account.',
};

export type SignInTranslate = (key: MessageKey | SignInKey, values?: Record<string, string | number>) => string;

/** The app's texts and the sign-in texts in one language, each {name} replaced by its value. */
export function signInTranslator(lang: Language): SignInTranslate {
  const table: Record<MessageKey | SignInKey, string> = lang === 'en' ? { ...en, ...signInEn } : { ...sk, ...signInSk };
  return (key, values) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? `{${name}}`));
}

/** useI18n for the screens that sign in: the same language, with the sign-in texts. */
export function useSignInI18n(): { lang: Language; t: SignInTranslate } {
  const { lang } = useI18n();
  return { lang, t: useMemo(() => signInTranslator(lang), [lang]) };
}
