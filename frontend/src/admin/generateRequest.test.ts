import { describe, expect, it } from 'vitest';
import type { Place } from '../api/types';
import { generateRequest, initialGenerateValues, serviceChoices } from './generateRequest';

const values = { ...initialGenerateValues('2030-01-07'), placeIds: '12, 13' };
const catalogue = [
  { code: 'default', nameSk: 'Termín', nameEn: 'Appointment' },
  { code: 'pcr', nameSk: 'PCR test', nameEn: 'PCR test' },
];
const place = (services: Place['services']): Place =>
  ({ id: 12, name: 'P', address: 'A', region: 'R', timeZone: 'Europe/Bratislava', active: true, closed: false, services });

describe('the slot generation request', () => {
  it('leaves the default service out, as the request read before services', () => {
    expect(generateRequest(values, true)).toEqual({
      placeIds: [12, 13], from: '2030-01-07', to: '2030-01-13',
      template: { firstStart: '08:00', lastStart: '15:45', intervalMinutes: 15, lengthMinutes: 15 }, capacity: 4, dryRun: true, service: undefined,
    });
    expect(JSON.stringify(generateRequest(values, false))).not.toContain('service');
  });

  it('names the service chosen', () => {
    expect(generateRequest({ ...values, service: 'pcr' }, false)).toMatchObject({ service: 'pcr', capacity: 4, dryRun: false });
  });

  it('leaves the template and seats out when the places\' stored offer gives them', () => {
    const request = generateRequest({ ...values, service: 'pcr', fromOffer: true }, true);
    expect(request).toEqual({ placeIds: [12, 13], from: '2030-01-07', to: '2030-01-13', template: undefined, capacity: undefined, dryRun: true, service: 'pcr' });
    expect(JSON.stringify(request)).toBe('{"placeIds":[12,13],"from":"2030-01-07","to":"2030-01-13","dryRun":true,"service":"pcr"}');
  });
});

describe('the services to generate for', () => {
  it('are the catalogue\'s, default first chosen, while no single place is read', () => {
    expect(serviceChoices(catalogue, null)).toEqual({ choices: catalogue, chosen: 'default' });
    expect(serviceChoices([], null)).toEqual({ choices: [], chosen: 'default' });
    expect(serviceChoices([catalogue[1]], null).chosen).toBe('pcr');
  });

  it('are one place\'s own, its only service chosen', () => {
    const pcrOnly = place([{ code: 'pcr', nameSk: 'PCR test', nameEn: 'PCR test', minutes: 15 }]);
    expect(serviceChoices(catalogue, pcrOnly)).toEqual({ choices: pcrOnly.services, chosen: 'pcr' });
  });

  it('at a place with several, the default one where offered, else the first', () => {
    const both = place([{ code: 'default', nameSk: 'Termín', nameEn: 'Appointment', minutes: null }, { code: 'pcr', nameSk: 'PCR', nameEn: 'PCR', minutes: 15 }]);
    expect(serviceChoices(catalogue, both).chosen).toBe('default');
    const tests = place([{ code: 'antigen', nameSk: 'Antigén', nameEn: 'Antigen', minutes: 10 }, { code: 'pcr', nameSk: 'PCR', nameEn: 'PCR', minutes: 15 }]);
    expect(serviceChoices(catalogue, tests).chosen).toBe('antigen');
  });

  it('fall back to the catalogue where the place lists none', () => {
    expect(serviceChoices(catalogue, place(undefined)).choices).toBe(catalogue);
    expect(serviceChoices(catalogue, place([])).choices).toBe(catalogue);
  });
});
