import { describe, expect, it } from 'vitest';
import { SlotsApi } from '../api/slotsApi';
import type { Place } from '../api/types';
import { invitationOf, needsServiceChoice, serviceName, servicesKnown } from './services';

const place = (services: Place['services']): Place => ({
  id: 7, name: 'P', address: 'A', region: 'R', timeZone: 'Europe/Bratislava', active: true, services,
} as Place);

const antigen = { code: 'antigen', nameSk: 'Antigénový test', nameEn: 'Antigen test', minutes: 10 };
const pcr = { code: 'pcr', nameSk: 'PCR test', nameEn: 'PCR test', minutes: 15 };

describe('the service step', () => {
  it('is asked only where the place offers several services', () => {
    expect(needsServiceChoice(place([antigen, pcr]))).toBe(true);
    expect(needsServiceChoice(place([antigen]))).toBe(false);
    expect(needsServiceChoice(place([]))).toBe(false);
    expect(needsServiceChoice(place(undefined))).toBe(false);
  });

  it('is known only from the place read whole: the search list leaves services out', () => {
    expect(servicesKnown(place([antigen, pcr]))).toBe(true);
    expect(servicesKnown(place([]))).toBe(true);
    expect(servicesKnown(place(undefined))).toBe(false);
    expect(servicesKnown(place(null))).toBe(false);
  });

  it('names the service in the page\'s language, and by its code where the place does not list it', () => {
    expect(serviceName(place([antigen, pcr]), 'antigen', 'sk')).toBe('Antigénový test');
    expect(serviceName(place([antigen, pcr]), 'antigen', 'en')).toBe('Antigen test');
    expect(serviceName(place([antigen]), 'booster', 'en')).toBe('booster');
  });
});

describe('the invitation field', () => {
  const vaccine = { code: 'vaccine', nameSk: 'Očkovanie', nameEn: 'Vaccination', minutes: 15, invitation: 'required' };
  const booster = { code: 'booster', nameSk: 'Posilňovacia dávka', nameEn: 'Booster', minutes: 15, invitation: 'accepted' };

  it('follows the chosen service, or the place\'s only one where none is named', () => {
    expect(invitationOf(place([antigen, vaccine, booster]), 'vaccine')).toBe('required');
    expect(invitationOf(place([antigen, vaccine, booster]), 'booster')).toBe('accepted');
    expect(invitationOf(place([antigen, vaccine, booster]), 'antigen')).toBeUndefined();
    expect(invitationOf(place([vaccine]), undefined)).toBe('required');
  });

  it('is not asked where it is unknown which service is booked, or the value is one the page does not know', () => {
    expect(invitationOf(place([vaccine, booster]), undefined)).toBeUndefined();
    expect(invitationOf(place(undefined), undefined)).toBeUndefined();
    expect(invitationOf(place([{ ...vaccine, invitation: 'someday' }]), 'vaccine')).toBeUndefined();
  });
});

describe('SlotsApi with a service', () => {
  const recording = () => {
    const seen: { url: string; body?: string }[] = [];
    const fetchFn = (async (url: string, init?: RequestInit) => {
      seen.push({ url, body: init?.body === undefined ? undefined : String(init.body) });
      return new Response(JSON.stringify({ code: 'ABCDE-FGHJK', placeId: 7, from: '2030-01-01', to: '2030-01-07', days: [] }), { status: 201 });
    }) as typeof fetch;
    return { seen, api: new SlotsApi('', fetchFn) };
  };

  it('asks for one service\'s availability where one is named, and for the place\'s only one otherwise', async () => {
    const { seen, api } = recording();
    await api.availability(7, '2030-01-01', '2030-01-07', 'pcr');
    await api.availability(7, '2030-01-01', '2030-01-07');
    expect(seen.map((s) => s.url)).toEqual([
      '/api/places/7/availability?from=2030-01-01&to=2030-01-07&service=pcr',
      '/api/places/7/availability?from=2030-01-01&to=2030-01-07',
    ]);
  });

  it('sends the service in the booking only where one was chosen, so a one-service place gets the old body', async () => {
    const { seen, api } = recording();
    const person = { placeId: 7, day: '2030-01-02', time: '08:00', name: 'Jana', phone: '0905 123 456', nationalId: '9001011234', language: 'sk' as const };
    await api.reserve({ ...person, service: 'pcr' }, 'k1');
    await api.reserve({ ...person, service: undefined }, 'k2');
    expect(JSON.parse(seen[0].body ?? '{}')).toMatchObject({ service: 'pcr' });
    expect(Object.keys(JSON.parse(seen[1].body ?? '{}'))).not.toContain('service');
  });

  it('sends an invitation code only where the person gave one', async () => {
    const { seen, api } = recording();
    const person = { placeId: 7, day: '2030-01-02', time: '08:00', name: 'Jana', phone: '0905 123 456', nationalId: '9001011234', language: 'sk' as const };
    await api.reserve({ ...person, invitation: 'ABCD-EFGH-JKMN' }, 'k1');
    await api.reserve(person, 'k2');
    expect(JSON.parse(seen[0].body ?? '{}')).toMatchObject({ invitation: 'ABCD-EFGH-JKMN' });
    expect(Object.keys(JSON.parse(seen[1].body ?? '{}'))).not.toContain('invitation');
  });
});
