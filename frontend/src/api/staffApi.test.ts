import { describe, expect, it } from 'vitest';
import { rosterQuery } from './staffApi';

describe('the roster query', () => {
  it('is empty for the place\'s today, first page, no filters', () => {
    expect(rosterQuery({})).toBe('');
    expect(rosterQuery({ day: '', state: undefined, code: '  ', page: 1 })).toBe('');
  });

  it('names each filter, the code as printed on the ticket', () => {
    expect(rosterQuery({ day: '2026-03-02', from: '08:00', to: '10:30', state: 'checked-in', code: ' abcde-fghjk ', page: 3, pageSize: 25 }))
      .toBe('?day=2026-03-02&from=08%3A00&to=10%3A30&state=checked-in&code=ABCDE-FGHJK&page=3&pageSize=25');
  });
});
