import { describe, expect, it } from 'vitest';
import { affectedQuery, blockProblemErrors, blockRequest, confirmKey, localToday, minuteBefore, validateBlock } from './blockCancel';
import { staffTranslator } from './staffTexts';
import { rosterQuery } from '../api/staffApi';

const draft = { day: '2026-03-02', from: '', to: '', reason: 'Výpadok elektriny' };

describe('a block to cancel', () => {
  it('is today on the desk\'s clock by default', () => {
    expect(localToday(new Date(2026, 2, 2, 23, 59))).toBe('2026-03-02');
  });

  it('needs a day and a reason of up to 100 characters; the times are optional', () => {
    expect(validateBlock(draft)).toEqual({});
    expect(validateBlock({ ...draft, day: '', reason: '  ' })).toEqual({ day: 'blockErrDay', reason: 'blockErrReason' });
    expect(validateBlock({ ...draft, reason: 'x'.repeat(101) })).toEqual({ reason: 'blockErrReason' });
    expect(validateBlock({ ...draft, reason: 'x'.repeat(100) })).toEqual({});
  });

  it('ends after it starts', () => {
    expect(validateBlock({ ...draft, from: '10:00', to: '10:00' })).toEqual({ to: 'blockErrToAfterFrom' });
    expect(validateBlock({ ...draft, from: '10:00', to: '09:00' })).toEqual({ to: 'blockErrToAfterFrom' });
    expect(validateBlock({ ...draft, to: '00:00' })).toEqual({ to: 'blockErrToAfterFrom' });
    expect(validateBlock({ ...draft, from: '10:00', to: '10:01' })).toEqual({});
  });

  it('is sent without the times left out and with the reason trimmed', () => {
    expect(blockRequest({ ...draft, reason: ' Porucha ' })).toEqual({ day: '2026-03-02', from: undefined, to: undefined, reason: 'Porucha' });
    expect(JSON.stringify(blockRequest({ ...draft, from: '08:00', to: '12:00' })))
      .toBe('{"day":"2026-03-02","from":"08:00","to":"12:00","reason":"Výpadok elektriny"}');
  });
});

describe('the bookings a block cancels', () => {
  it('are the booked ones starting before the block\'s end: the roster is asked up to the minute before', () => {
    expect(minuteBefore('12:00')).toBe('11:59');
    expect(minuteBefore('10:01')).toBe('10:00');
    expect(minuteBefore('00:01')).toBe('00:00');
    expect(minuteBefore('00:00')).toBeUndefined();
    expect(rosterQuery(affectedQuery({ ...draft, from: '08:00', to: '12:00' })))
      .toBe('?day=2026-03-02&from=08%3A00&to=11%3A59&state=booked&pageSize=1');
  });

  it('are the whole day\'s when no times are given', () => {
    expect(rosterQuery(affectedQuery(draft))).toBe('?day=2026-03-02&state=booked&pageSize=1');
  });
});

describe('the API\'s refusal of a block', () => {
  it('is shown beside each field it names', () => {
    expect(blockProblemErrors({ status: 400, code: 'validation-failed', errors: { day: ['past'], reason: ['long'], to: ['x'], other: ['y'] } }))
      .toEqual({ day: 'blockErrDay', reason: 'blockErrReason', to: 'blockErrTime' });
    expect(blockProblemErrors({ status: 400, errors: { '$.from': ['bad'], Reason: ['x'] } })).toEqual({ from: 'blockErrTime', reason: 'blockErrReason' });
    expect(blockProblemErrors({ status: 403, code: 'place-forbidden' })).toEqual({});
  });
});

describe('the confirmation', () => {
  it('says how many bookings are cancelled and SMS sent, in each language\'s number', () => {
    const [sk, en] = [staffTranslator('sk'), staffTranslator('en')];
    expect([0, 1, 2, 4, 5, 12].map((count) => sk(confirmKey(count), { count }))).toEqual([
      'V tomto čase nie je žiadna rezervácia. Termíny sa len zatvoria pre nové rezervácie. Pokračovať?',
      'Zrušiť 1 rezerváciu a poslať 1 SMS?',
      'Zrušiť 2 rezervácie a poslať 2 SMS?',
      'Zrušiť 4 rezervácie a poslať 4 SMS?',
      'Zrušiť 5 rezervácií a poslať 5 SMS?',
      'Zrušiť 12 rezervácií a poslať 12 SMS?',
    ]);
    expect([1, 3].map((count) => en(confirmKey(count), { count }))).toEqual(['Cancel 1 booking and send 1 SMS?', 'Cancel 3 bookings and send 3 SMS?']);
  });
});
