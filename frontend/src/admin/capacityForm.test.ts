import { describe, expect, it } from 'vitest';
import { capacityRequest, emptyCapacity } from './capacityForm';

const draft = { ...emptyCapacity, place: '12', from: '2026-12-01', to: '2026-12-03', seats: '6' };

describe('capacityRequest', () => {
  it('sends only what was filled in: no service or time means the place\'s only service and every slot', () => {
    expect(capacityRequest(draft)).toEqual({ place: 12, change: { from: '2026-12-01', to: '2026-12-03', seats: 6 } });
    expect(capacityRequest({ ...draft, service: 'pcr', time: ' 08:30 ' }))
      .toEqual({ place: 12, change: { from: '2026-12-01', to: '2026-12-03', seats: 6, service: 'pcr', time: '08:30' } });
  });

  it('names each wrong field', () => {
    expect(capacityRequest({ ...emptyCapacity })).toEqual({ errors: { place: 'errPlace', from: 'errDay', to: 'errDay', seats: 'errSeats' } });
    expect(capacityRequest({ ...draft, place: '0', to: '2026-11-30', time: '8:30', seats: '10001' }))
      .toEqual({ errors: { place: 'errPlace', to: 'errToBeforeFrom', time: 'errTime', seats: 'errSeats' } });
    expect(capacityRequest({ ...draft, seats: '2.5' })).toEqual({ errors: { seats: 'errSeats' } });
  });
});
