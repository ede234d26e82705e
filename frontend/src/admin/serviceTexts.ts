import { useMemo } from 'react';
import type { Language } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { en, type MessageKey, sk } from '../i18n/messages';

// The admin screens' texts for services (the catalogue, what a place offers, generation and statistics
// per service), Slovak and English, in the admin chunk only: a citizen never reads them.

const serviceSk = {
  servicesTitle: 'Služby',
  servicesLead: 'Katalóg služieb, ktoré miesta ponúkajú (napríklad antigénový test alebo očkovanie). Kód služby sa neskôr nedá zmeniť.',
  serviceCode: 'Kód',
  serviceCodeHint: 'Malé písmená, číslice a pomlčky, najviac 32 znakov; objaví sa v odkazoch.',
  serviceNameSk: 'Názov po slovensky',
  serviceNameEn: 'Názov po anglicky',
  serviceTwoDoses: 'Dve dávky (druhý termín sa rezervuje s prvým)',
  serviceMinDays: 'Druhá dávka najskôr po (dňoch)',
  serviceMaxDays: 'Druhá dávka najneskôr po (dňoch)',
  serviceActive: 'Aktívna (miesta ju môžu ponúkať)',
  createService: 'Pridať službu',
  serviceCreated: 'Služba {name} ({code}) je pridaná.',
  serviceSaved: 'Služba {name} ({code}) je uložená.',
  serviceDeactivated: 'Služba {name} ({code}) je vypnutá: nikde sa nedá rezervovať.',
  serviceList: 'Služby v katalógu',
  serviceName: 'Názov',
  serviceDoses: 'Dávky',
  serviceDosesOne: '1',
  serviceDosesTwo: '2 (po {min} – {max} dňoch)',
  serviceState: 'Stav',
  serviceStateActive: 'aktívna',
  serviceStateInactive: 'vypnutá',
  serviceActions: 'Akcie',
  editService: 'Upraviť',
  editServiceNamed: 'Upraviť službu {code}',
  deactivateService: 'Vypnúť',
  deactivateServiceNamed: 'Vypnúť službu {code}',
  editingService: 'Úprava služby {code}',
  saveService: 'Uložiť službu',
  cancelEdit: 'Zrušiť úpravu',
  noServices: 'Katalóg nemá žiadnu aktívnu službu.',
  errServiceCode: 'Zadajte kód: 1 až 32 malých písmen, číslic alebo pomlčiek, ktorý ešte nemá iná služba.',
  errServiceName: 'Zadajte názov (najviac 100 znakov).',
  errDoseDays: 'Zadajte počet dní od 1 do 365.',
  errDoseOrder: 'Nesmie byť menej ako „najskôr“.',
  formErrors: 'Skontrolujte označené polia.',

  placeServicesTitle: 'Služby miesta',
  placeServicesLead: 'Čo miesto ponúka: miesta v termíne a denná šablóna, z ktorej generovanie termínov služby vychádza.',
  placeServicesOf: 'Miesto {name} ponúka',
  placeServicesNone: 'Miesto neponúka žiadnu službu.',
  offerNoTemplate: 'bez šablóny',
  offerTemplate: 'Šablóna',
  offerTemplateValue: '{first} – {last}, každých {interval} min, termín {length} min',
  changeOffer: 'Zmeniť',
  changeOfferNamed: 'Zmeniť ponuku služby {code}',
  offerService: 'Služba',
  offerSeats: 'Miest v termíne',
  offerActive: 'Miesto službu ponúka (bez zaškrtnutia sa ponuka zastaví)',
  saveOffer: 'Uložiť ponuku',
  offerSaved: 'Ponuka služby {code}: {state}, miest v termíne: {seats}, {first} – {last} každých {interval} min, dĺžka {length} min.',
  offerStateOn: 'ponúka sa',
  offerStateOff: 'zastavená',
  errSeats: 'Zadajte 1 až 10000.',
  errTime: 'Zadajte čas ako HH:MM.',
  errLastStart: 'Posledný začiatok nesmie byť pred prvým.',
  errMinutes: 'Zadajte 5 až 720 minút.',

  generateService: 'Služba',
  generateServiceHint: 'Pri jednom čísle miesta sa ponúkajú jeho služby; ak má jedinú, je vybraná.',
  generateFromOffer: 'Šablóna a miesta v termíne z uloženej ponuky služby na mieste',

  statsService: 'Služba',
  statsAllServices: 'Všetky služby',
  statsOfService: 'Služba: {name}',

  capacityTitle: 'Kapacita termínov',
  capacityLead: 'Pridá alebo uberie miesta v zverejnených termínoch, ktoré sa ešte nezačali. Pridané miesta sa dajú rezervovať hneď, v dňoch, o ktoré má záujem poradovník, ich najprv dostane poradovník. Ubrať sa dajú len voľné miesta.',
  capacityPlace: 'Číslo miesta',
  capacityService: 'Služba (prázdne = jediná služba miesta)',
  capacityAnyService: 'Jediná služba miesta',
  capacityTime: 'Len termíny so začiatkom (HH:MM, prázdne = všetky)',
  capacitySeats: 'Miest v termíne',
  capacitySet: 'Nastaviť kapacitu',
  capacityDone: 'Zmenené termíny: {slots}, pridané miesta: {added} (z toho pre poradovník: {held}), odobraté miesta: {removed}.',
  capacityBlocked: 'Nič sa nezmenilo: v niektorých termínoch je viac rezervácií, ako je nový počet miest. Rezervácie, ktoré bránia zmene:',
  errPlace: 'Zadajte číslo miesta.',
  errDay: 'Zadajte deň.',
  errToBeforeFrom: 'Deň „do“ nesmie byť pred dňom „od“.',
};

export type ServiceKey = keyof typeof serviceSk;

const serviceEn: Record<ServiceKey, string> = {
  servicesTitle: 'Services',
  servicesLead: 'The catalogue of services that places offer (for example an antigen test or a vaccination). A service\'s code cannot change later.',
  serviceCode: 'Code',
  serviceCodeHint: 'Lower-case letters, digits and dashes, at most 32; it appears in links.',
  serviceNameSk: 'Name in Slovak',
  serviceNameEn: 'Name in English',
  serviceTwoDoses: 'Two doses (the second appointment is booked with the first)',
  serviceMinDays: 'Second dose after at least (days)',
  serviceMaxDays: 'Second dose after at most (days)',
  serviceActive: 'Active (places may offer it)',
  createService: 'Add the service',
  serviceCreated: 'Service {name} ({code}) added.',
  serviceSaved: 'Service {name} ({code}) saved.',
  serviceDeactivated: 'Service {name} ({code}) is switched off: it is booked nowhere.',
  serviceList: 'Services in the catalogue',
  serviceName: 'Name',
  serviceDoses: 'Doses',
  serviceDosesOne: '1',
  serviceDosesTwo: '2 (after {min} – {max} days)',
  serviceState: 'State',
  serviceStateActive: 'active',
  serviceStateInactive: 'switched off',
  serviceActions: 'Actions',
  editService: 'Edit',
  editServiceNamed: 'Edit service {code}',
  deactivateService: 'Switch off',
  deactivateServiceNamed: 'Switch off service {code}',
  editingService: 'Editing service {code}',
  saveService: 'Save the service',
  cancelEdit: 'Cancel editing',
  noServices: 'The catalogue has no active service.',
  errServiceCode: 'Enter a code: 1 to 32 lower-case letters, digits or dashes, not used by another service.',
  errServiceName: 'Enter a name (at most 100 characters).',
  errDoseDays: 'Enter a number of days from 1 to 365.',
  errDoseOrder: 'Must not be less than “at least”.',
  formErrors: 'Check the marked fields.',

  placeServicesTitle: 'A place\'s services',
  placeServicesLead: 'What a place offers: seats per slot and the daily template that slot generation of the service starts from.',
  placeServicesOf: 'Place {name} offers',
  placeServicesNone: 'The place offers no service.',
  offerNoTemplate: 'no template',
  offerTemplate: 'Template',
  offerTemplateValue: '{first} – {last}, every {interval} min, {length} min each',
  changeOffer: 'Change',
  changeOfferNamed: 'Change the offer of service {code}',
  offerService: 'Service',
  offerSeats: 'Seats per slot',
  offerActive: 'The place offers it (unticked, the offer stops)',
  saveOffer: 'Save the offer',
  offerSaved: 'Offer of service {code}: {state}, {seats} seats per slot, {first} – {last} every {interval} min, {length} min long.',
  offerStateOn: 'offered',
  offerStateOff: 'stopped',
  errSeats: 'Enter 1 to 10000.',
  errTime: 'Enter a time as HH:MM.',
  errLastStart: 'The last start must not be before the first.',
  errMinutes: 'Enter 5 to 720 minutes.',

  generateService: 'Service',
  generateServiceHint: 'With one place number, its services are offered; where it has only one, that one is chosen.',
  generateFromOffer: 'Template and seats per slot from the place\'s stored offer of the service',

  statsService: 'Service',
  statsAllServices: 'All services',
  statsOfService: 'Service: {name}',

  capacityTitle: 'Seats of slots',
  capacityLead: 'Adds or removes seats of published slots that have not started. Added seats can be booked at once; on days the waiting list wants, it gets them first. Only free seats can be removed.',
  capacityPlace: 'Place number',
  capacityService: 'Service (empty = the place\'s only service)',
  capacityAnyService: 'The place\'s only service',
  capacityTime: 'Only slots starting at (HH:MM, empty = all)',
  capacitySeats: 'Seats per slot',
  capacitySet: 'Set the seats',
  capacityDone: 'Slots changed: {slots}, seats added: {added} (kept for the waiting list: {held}), seats removed: {removed}.',
  capacityBlocked: 'Nothing was changed: some slots hold more bookings than the new number of seats. The bookings in the way:',
  errPlace: 'Enter a place number.',
  errDay: 'Enter a day.',
  errToBeforeFrom: 'The "to" day must not be before the "from" day.',
};

export type ServiceTranslate = (key: MessageKey | ServiceKey, values?: Record<string, string | number>) => string;

/** The app's texts and the service screens' in one language, each {name} replaced by its value. */
export function serviceTranslator(lang: Language): ServiceTranslate {
  const table: Record<MessageKey | ServiceKey, string> = lang === 'en' ? { ...en, ...serviceEn } : { ...sk, ...serviceSk };
  return (key, values) => table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? `{${name}}`));
}

/** useI18n for the admin screens that name services: the same language, with their texts. */
export function useServiceI18n(): { lang: Language; t: ServiceTranslate } {
  const { lang } = useI18n();
  return { lang, t: useMemo(() => serviceTranslator(lang), [lang]) };
}
