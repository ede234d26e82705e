import { useMemo } from 'react';
import type { Language } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { en, type MessageKey, sk } from '../i18n/messages';

// The privacy page's texts, Slovak and English, in its own chunk: the booking flow's first load does
// not carry them. The retention period and the contact are the server's (GET /api/privacy), never
// written here, so the page cannot state what the server does not do.

const privacySk = {
  privacyTitle: 'Ochrana osobných údajov',
  privacyLead: 'Čo o vás Slots uchováva, prečo, ako dlho a ako to zistíte alebo vymažete.',
  privacyWhatTitle: 'Čo uchovávame',
  privacyName: 'Meno a telefónne číslo, ktoré zadáte pri rezervácii alebo pri zápise do čakacieho zoznamu.',
  privacyNationalId: 'Rodné číslo neuchovávame: len jeho kľúčovaný odtlačok (HMAC), z ktorého sa číslo nedá spätne zistiť. Dátum narodenia z neho rozhodne, či sa môžete objednať, a neukladá sa.',
  privacyBooking: 'Rezerváciu: miesto, deň, čas, kód rezervácie a či ste prišli.',
  privacySms: 'SMS, ktoré vám posielame (potvrdenie, pripomienka, zrušenie), a ich text.',
  privacyWhyTitle: 'Prečo',
  privacyWhy: 'Aby sme vám termín rezervovali a potvrdili ho SMS, aby mal každý človek najviac jednu rezerváciu a aby vás na mieste mohli overiť a zaregistrovať. Personál miesta vidí vaše meno a čiastočne skryté telefónne číslo. Osobné údaje sa nedostanú do záznamov servera ani do adries stránok.',
  privacyHowLongTitle: 'Ako dlho',
  privacyHowLong: 'Meno, telefónne číslo a odtlačok rodného čísla vymažeme {period} po termíne (pri čakacom zozname po poslednom dni, o ktorý ste žiadali) – z rezervácie, čakacieho zoznamu, ponúk, pripomienok aj odoslaných SMS. Zostanú len počty bez osobných údajov pre štatistiku.',
  privacyOneDay: '1 deň',
  privacyDays: '{days} dní',
  privacyYoursTitle: 'Vaše údaje',
  privacyYours: 'Na stránke Moja rezervácia zadáte kód rezervácie a telefónne číslo alebo rodné číslo: uvidíte, čo o vás uchovávame, a môžete to vymazať. Rezervácia, ktorá ešte len bude, sa pred vymazaním zruší a dostanete o tom SMS.',
  privacyManageLink: 'Otvoriť Moju rezerváciu',
  privacyAskTitle: 'Koho sa spýtať',
  privacyController: 'Prevádzkovateľ: {controller}.',
  privacyContact: 'Otázky o vašich osobných údajoch a žiadosti podľa GDPR posielajte na adresu',
  privacyNoContact: 'Otázky o vašich osobných údajoch a žiadosti podľa GDPR smerujte na prevádzkovateľa tejto služby.',
};

type PrivacyKey = keyof typeof privacySk;

const privacyEn: Record<PrivacyKey, string> = {
  privacyTitle: 'Privacy',
  privacyLead: 'What Slots keeps about you, why, for how long, and how you see or erase it.',
  privacyWhatTitle: 'What we keep',
  privacyName: 'The name and phone number you give when you book or join a waiting list.',
  privacyNationalId: 'Not your national id: only a keyed hash of it (HMAC), from which the number cannot be read back. The birth date in it decides whether you may book and is not stored.',
  privacyBooking: 'The booking: place, day, time, booking code, and whether you came.',
  privacySms: 'The text messages we send you (confirmation, reminder, cancellation) and their text.',
  privacyWhyTitle: 'Why',
  privacyWhy: 'To book your appointment and confirm it by SMS, to keep to one booking per person, and so the staff at the place can check and admit you. The staff see your name and a partly hidden phone number. Personal data never goes into the server\'s logs or into page addresses.',
  privacyHowLongTitle: 'For how long',
  privacyHowLong: 'Your name, phone number and the hash of your national id are erased {period} after the appointment (for a waiting list, after the last day you asked for): from the booking, the waiting list, offers, reminders and the messages sent. Only counts without personal data remain, for statistics.',
  privacyOneDay: '1 day',
  privacyDays: '{days} days',
  privacyYoursTitle: 'Your data',
  privacyYours: 'On the My reservation page, enter your booking code and your phone number or national id: you see what is kept about you and can erase it. A booking still ahead is cancelled first, and you get an SMS about it.',
  privacyManageLink: 'Open My reservation',
  privacyAskTitle: 'Whom to ask',
  privacyController: 'Controller: {controller}.',
  privacyContact: 'Questions about your personal data and GDPR requests go to',
  privacyNoContact: 'Questions about your personal data and GDPR requests go to the operator of this service.',
};

export type PrivacyTranslate = (key: MessageKey | PrivacyKey, values?: Record<string, string | number>) => string;

function privacyTranslator(lang: Language): PrivacyTranslate {
  const table: Record<MessageKey | PrivacyKey, string> = lang === 'en' ? { ...en, ...privacyEn } : { ...sk, ...privacySk };
  return (key, values) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? `{${name}}`));
}

/** useI18n for the privacy page: the same language, with its texts. */
export function usePrivacyI18n(): { lang: Language; t: PrivacyTranslate } {
  const { lang } = useI18n();
  return { lang, t: useMemo(() => privacyTranslator(lang), [lang]) };
}

/** The retention period in words: "1 day" or "{days} days" (Slovak "1 deň", "{days} dní"). */
export function retentionPeriod(days: number, t: PrivacyTranslate): string {
  return days === 1 ? t('privacyOneDay') : t('privacyDays', { days });
}
