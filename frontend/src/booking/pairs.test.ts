import { describe, expect, it } from 'vitest';
import type { Place, Service } from '../api/types';
import { bookedService, doseIntervalOf, moveDays, secondDayRefusal, secondDoseDays, validateSecondDay } from './pairs';

const interval = { minDays: 21, maxDays: 42 };

describe('the second dose\'s days', () => {
  it('run from minDays to maxDays after the first dose\'s day, both included', () => {
    expect(secondDoseDays('2026-12-01', interval)).toEqual({ from: '2026-12-22', to: '2027-01-12' });
    expect(secondDoseDays('2026-12-01', { minDays: 7, maxDays: 7 })).toEqual({ from: '2026-12-08', to: '2026-12-08' });
  });

  it('cross a month\'s end and February of a leap year', () => {
    expect(secondDoseDays('2028-02-20', { minDays: 9, maxDays: 10 })).toEqual({ from: '2028-02-29', to: '2028-03-01' });
  });

  it('offered for a move are cut to the 31 days one availability read spans', () => {
    expect(moveDays('2026-12-01', interval)).toEqual({ from: '2026-12-22', to: '2027-01-12' });
    expect(moveDays('2026-12-01', { minDays: 10, maxDays: 90 })).toEqual({ from: '2026-12-11', to: '2027-01-10' });
  });
});

describe('the booking page\'s second-dose day', () => {
  const days = { from: '2026-12-22', to: '2027-01-12' };

  it('may be left empty: the earliest free day', () => {
    expect(validateSecondDay('', days)).toBeUndefined();
  });

  it('is a day of the interval, its ends included', () => {
    expect(validateSecondDay('2026-12-22', days)).toBeUndefined();
    expect(validateSecondDay('2027-01-12', days)).toBeUndefined();
    expect(validateSecondDay('2026-12-21', days)).toBe('errSecondDay');
    expect(validateSecondDay('2027-01-13', days)).toBe('errSecondDay');
    expect(validateSecondDay('22.12.2026', days)).toBe('errSecondDay');
  });
});

describe('a refusal of a pair', () => {
  it('is said at the second-dose day field where it concerns the day chosen', () => {
    expect(secondDayRefusal({ status: 422, code: 'second-dose-outside-interval' }, true)).toBe('secondDoseOutside');
    expect(secondDayRefusal({ status: 409, code: 'second-dose-full' }, true)).toBe('secondDayFull');
  });

  it('is said above the form where no day was chosen, or it is another refusal', () => {
    expect(secondDayRefusal({ status: 409, code: 'second-dose-full' }, false)).toBeUndefined();
    expect(secondDayRefusal({ status: 422, code: 'no-second-dose' }, true)).toBeUndefined();
    expect(secondDayRefusal({ status: 409, code: 'slot-full' }, true)).toBeUndefined();
  });
});

describe('the service a booking books', () => {
  const place = (codes: string[]): Place => ({
    id: 1, name: 'P', address: 'A', region: 'R', timeZone: 'Europe/Bratislava', active: true, closed: false,
    services: codes.map((code) => ({ code, nameSk: code, nameEn: code, minutes: 15 })),
  });
  const catalogue: Service[] = [
    { code: 'default', nameSk: 'Termín', nameEn: 'Appointment' },
    { code: 'vaccine', nameSk: 'Očkovanie', nameEn: 'Vaccination', secondDose: interval },
  ];

  it('is the one chosen, or the place\'s only one', () => {
    expect(bookedService(place(['default', 'vaccine']), 'vaccine')).toBe('vaccine');
    expect(bookedService(place(['vaccine']), undefined)).toBe('vaccine');
    expect(bookedService(place(['default', 'vaccine']), undefined)).toBeUndefined();
  });

  it('has the catalogue\'s interval where it is two-dose, and none otherwise', () => {
    expect(doseIntervalOf(catalogue, 'vaccine')).toEqual(interval);
    expect(doseIntervalOf(catalogue, 'default')).toBeUndefined();
    expect(doseIntervalOf(catalogue, 'unknown')).toBeUndefined();
    expect(doseIntervalOf(catalogue, undefined)).toBeUndefined();
  });
});
