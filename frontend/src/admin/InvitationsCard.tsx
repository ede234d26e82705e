import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import { ApiError } from '../api/http';
import type { AdminService, InvitationBatch } from '../api/types';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { saveFile } from '../ui/saveFile';
import { adminError } from './adminError';
import {
  type BatchDraft, type BatchError, type BatchField, batchProblemErrors, batchRequest, batchState, csvFileName, emptyBatch, labelMax,
} from './invitationBatches';
import { useServiceI18n } from './serviceTexts';

type Result = { kind: 'success' | 'error'; text: string };

interface InvitationsCardProps {
  admin: AdminApi;
  catalogue: AdminService[];
  /** Admins issue and revoke batches; viewers only see them. */
  canChange: boolean;
}

/**
 * A service's batches of invitation codes: issuing one saves its CSV at once (the only time the codes
 * exist in plain), the list says how many of each were spent, and revoking one (after a confirmation)
 * stops its unspent codes.
 */
export function InvitationsCard({ admin, catalogue, canChange }: InvitationsCardProps) {
  const { t, lang } = useServiceI18n();
  const [code, setCode] = useState('');
  const [draft, setDraft] = useState<BatchDraft>(emptyBatch);
  const [errors, setErrors] = useState<Partial<Record<BatchField, BatchError | string>>>({});
  const [batches, setBatches] = useState<InvitationBatch[]>([]);
  const [listError, setListError] = useState<unknown>(null);
  const [confirmingId, setConfirmingId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const chosen = code || catalogue[0]?.code || '';
  const service = catalogue.find((s) => s.code === chosen);
  const confirming = batches.find((b) => b.id === confirmingId && !b.revokedAt);
  const set = (field: BatchField) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const error = (field: BatchField) => {
    const e = errors[field];
    return e === undefined ? undefined : e.startsWith('err') ? t(e as BatchError) : e;
  };
  const when = (instant: string) =>
    new Date(instant).toLocaleString(lang === 'sk' ? 'sk-SK' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });

  const reload = useCallback(async () => {
    if (!chosen) return;
    try {
      setBatches(await admin.invitationBatches(chosen));
      setListError(null);
    } catch (failure) {
      setListError(failure);
    }
  }, [admin, chosen]);

  useEffect(() => {
    setBatches([]);
    void reload();
  }, [reload]);

  const choose = (next: string) => {
    setCode(next);
    setErrors({});
    setResult(null);
    setConfirmingId(null);
  };

  const issue = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    const built = batchRequest(draft);
    if ('errors' in built) {
      setErrors(built.errors);
      setResult({ kind: 'error', text: t('formErrors') });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const issued = await admin.issueInvitations(chosen, built.request);
      const file = csvFileName(issued.disposition, chosen, await issued.csv.text());
      saveFile(issued.csv, file);
      setDraft(emptyBatch);
      setResult({ kind: 'success', text: t('batchIssued', { label: built.request.label, size: built.request.size, file }) });
      await reload();
    } catch (failure) {
      const fields = failure instanceof ApiError ? batchProblemErrors(failure.problem) : {};
      setErrors(fields);
      const off = failure instanceof ApiError && failure.code === 'invitations-off';
      setResult({ kind: 'error', text: off ? t('invitationsOff') : Object.keys(fields).length > 0 ? t('formErrors') : adminError(failure, t) });
    } finally {
      setBusy(false);
    }
  };

  // The question counts the codes it stops as they stand now: bookings spend them meanwhile.
  const askRevoke = (batch: InvitationBatch) => {
    setConfirmingId(batch.id);
    setResult(null);
    void reload();
  };

  const revoke = async (batch: InvitationBatch) => {
    setBusy(true);
    setResult(null);
    try {
      await admin.revokeInvitations(batch.id);
      setResult({ kind: 'success', text: t('batchRevokedDone', { label: batch.label }) });
      await reload();
    } catch (failure) {
      setResult({ kind: 'error', text: adminError(failure, t) });
    } finally {
      setConfirmingId(null);
      setBusy(false);
    }
  };

  const state = (batch: InvitationBatch) => {
    switch (batchState(batch)) {
      case 'revoked':
        return t('batchRevoked', { at: when(batch.revokedAt ?? ''), by: batch.revokedBy ?? '—' });
      case 'spent':
        return t('batchSpentAll');
      default:
        return t('batchInForce');
    }
  };

  return (
    <section className="card" aria-labelledby="invitations">
      <h2 id="invitations">{t('invitationsTitle')}</h2>
      <p>{t('invitationsLead')}</p>
      <div className="field">
        <label htmlFor="invitations-service">{t('invitationsService')}</label>
        <select id="invitations-service" value={chosen} onChange={(e) => choose(e.target.value)}>
          {catalogue.map((s) => <option key={s.code} value={s.code}>{lang === 'sk' ? s.nameSk : s.nameEn} ({s.code})</option>)}
        </select>
      </div>
      {service && !service.eligibility?.acceptsInvitations && <p className="muted">{t('invitationsNotUsed')}</p>}
      {canChange && (
        <form onSubmit={(e) => void issue(e)} noValidate aria-label={t('issueBatch')}>
          <Field label={t('batchLabel')} name="batch-label" value={draft.label} onChange={set('label')} required maxLength={labelMax}
            hint={t('batchLabelHint')} error={error('label')} />
          <Field label={t('batchSize')} name="batch-size" value={draft.size} onChange={set('size')} required inputMode="numeric"
            hint={t('batchSizeHint')} error={error('size')} />
          <p className="hint">{t('issueOnce')}</p>
          <button type="submit" className="primary" disabled={busy || !chosen}>{t('issueBatch')}</button>
        </form>
      )}
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
      {listError !== null && <Notice kind="error">{adminError(listError, t)}</Notice>}
      {batches.length === 0 ? <p>{t('batchesNone')}</p> : (
        <div className="table-wrap">
          <table>
            <caption>{t('batchList', { code: chosen })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('batchLabel')}</th>
                <th scope="col">{t('batchSize')}</th>
                <th scope="col">{t('batchSpent')}</th>
                <th scope="col">{t('batchCreated')}</th>
                <th scope="col">{t('batchState')}</th>
                {canChange && <th scope="col"><span className="sr-only">{t('batchActions')}</span></th>}
              </tr>
            </thead>
            <tbody>
              {batches.map((batch) => (
                <tr key={batch.id} data-testid={`batch-${batch.id}`}>
                  <th scope="row">{batch.label}</th>
                  <td>{batch.size}</td>
                  <td>{batch.spent}</td>
                  <td>{when(batch.createdAt)} ({batch.createdBy})</td>
                  <td>{state(batch)}</td>
                  {canChange && (
                    <td>
                      {!batch.revokedAt && (
                        <button type="button" className="secondary" disabled={busy} onClick={() => askRevoke(batch)}
                          aria-label={t('revokeBatchNamed', { label: batch.label })}>{t('revokeBatch')}</button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {confirming && (
        <div className="confirm-box" role="group" aria-labelledby="revoke-question">
          <p id="revoke-question">{t('revokeConfirm', { label: confirming.label, left: confirming.size - confirming.spent })}</p>
          <div className="actions">
            <button type="button" className="danger" disabled={busy} onClick={() => void revoke(confirming)}>{t('revokeYes')}</button>
            <button type="button" className="secondary" autoFocus onClick={() => setConfirmingId(null)}>{t('revokeNo')}</button>
          </div>
        </div>
      )}
    </section>
  );
}
