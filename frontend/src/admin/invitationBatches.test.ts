import { describe, expect, it } from 'vitest';
import type { InvitationBatch } from '../api/types';
import { batchProblemErrors, batchRequest, batchState, csvFileName } from './invitationBatches';

describe('batchRequest', () => {
  it('sends the label trimmed and the size as a number', () => {
    expect(batchRequest({ label: '  Učitelia, Bratislava ', size: ' 250 ' })).toEqual({ request: { label: 'Učitelia, Bratislava', size: 250 } });
  });

  it('names each wrong field', () => {
    expect(batchRequest({ label: ' ', size: '0' })).toEqual({ errors: { label: 'errBatchLabel', size: 'errBatchSize' } });
    expect(batchRequest({ label: 'x'.repeat(101), size: '100001' })).toEqual({ errors: { label: 'errBatchLabel', size: 'errBatchSize' } });
    expect(batchRequest({ label: 'a\tb', size: '2.5' })).toEqual({ errors: { label: 'errBatchLabel', size: 'errBatchSize' } });
    expect(batchRequest({ label: 'x'.repeat(100), size: '100000' })).toEqual({ request: { label: 'x'.repeat(100), size: 100_000 } });
  });

  it('puts the API\'s messages beside the fields it names', () => {
    expect(batchProblemErrors({ status: 400, code: 'validation-failed', errors: { size: ['How many codes: 1 to 500.'], other: ['x'] } }))
      .toEqual({ size: 'How many codes: 1 to 500.' });
    expect(batchProblemErrors({ status: 409, code: 'invitations-off' })).toEqual({});
  });
});

describe('csvFileName', () => {
  const csv = '\uFEFFcode,service,batch,label\r\nABCD-EFGH-JKMN,vaccine,42,Teachers\r\n';

  it('takes the name the API gives, the extended form first', () => {
    expect(csvFileName('attachment; filename=invitations-vaccine-42.csv; filename*=UTF-8\'\'invitations-vaccine-42.csv', 'vaccine', csv))
      .toBe('invitations-vaccine-42.csv');
    expect(csvFileName('attachment; filename="codes 42.csv"', 'vaccine', csv)).toBe('codes_42.csv');
  });

  it('names the file after the service and the batch in its first row where the API gives no name', () => {
    expect(csvFileName(null, 'vaccine', csv)).toBe('invitations-vaccine-42.csv');
    expect(csvFileName('attachment', 'vaccine', 'code,service,batch,label\r\n')).toBe('invitations-vaccine.csv');
  });

  it('never lets a header lead the file out of the downloads folder', () => {
    expect(csvFileName('attachment; filename="../../etc/passwd"', 'vaccine', csv)).toBe('_.._etc_passwd');
    expect(csvFileName('attachment; filename=".."', 'vaccine', csv)).toBe('invitations-vaccine-42.csv');
  });
});

describe('batchState', () => {
  const batch: InvitationBatch = {
    id: 1, service: 'vaccine', label: 'Teachers', size: 2, spent: 0, createdAt: '2026-01-05T08:00:00Z', createdBy: 'admin-1', revokedAt: null, revokedBy: null,
  };

  it('is in force until every code is spent or an admin revokes it', () => {
    expect(batchState(batch)).toBe('in-force');
    expect(batchState({ ...batch, spent: 2 })).toBe('spent');
    expect(batchState({ ...batch, spent: 2, revokedAt: '2026-01-06T08:00:00Z', revokedBy: 'admin-1' })).toBe('revoked');
  });
});
