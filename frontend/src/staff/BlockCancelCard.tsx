import { type FormEvent, useState } from 'react';
import { ApiError } from '../api/http';
import type { StaffApi } from '../api/staffApi';
import type { BlockCancel } from '../api/types';
import { formatDay } from '../booking/dates';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { affectedQuery, type BlockDraft, type BlockErrors, blockProblemErrors, blockRequest, confirmKey, localToday, reasonMax, validateBlock } from './blockCancel';
import { staffError } from './staffMessages';
import { StandingBlocks } from './StandingBlocks';
import { useStaffI18n } from './staffTexts';

interface BlockCancelCardProps {
  api: StaffApi;
  placeId: number;
  /** After a block is cancelled, so the roster and the audit are read again. */
  onCancelled: () => void;
  onSignedOut: () => void;
}

type Stage = { name: 'form' } | { name: 'confirm'; affected: number } | { name: 'done'; block: BlockCancel };

/**
 * A site manager cancels a day or a time range at once: the form, then a confirmation that says how
 * many people get an SMS, then what was done.
 */
export function BlockCancelCard({ api, placeId, onCancelled, onSignedOut }: BlockCancelCardProps) {
  const { t, lang } = useStaffI18n();
  const [draft, setDraft] = useState<BlockDraft>(() => ({ day: localToday(), from: '', to: '', reason: '' }));
  const [errors, setErrors] = useState<BlockErrors>({});
  const [stage, setStage] = useState<Stage>({ name: 'form' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Read the standing blocks again after each cancel.
  const [cancels, setCancels] = useState(0);
  const set = (field: keyof BlockDraft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  // A refusal naming fields goes beside them (and back to the form); any other is said once.
  const refused = (error: unknown) => {
    if (error instanceof ApiError && error.problem.status === 401) return onSignedOut();
    const fields = error instanceof ApiError ? blockProblemErrors(error.problem) : {};
    if (Object.keys(fields).length > 0) {
      setErrors(fields);
      setStage({ name: 'form' });
      setFailure(t('blockFormErrors'));
    } else {
      setFailure(staffError(error, t));
    }
  };

  const count = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateBlock(draft);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return setFailure(t('blockFormErrors'));
    setBusy(true);
    try {
      const roster = await api.roster(placeId, affectedQuery(draft));
      setStage({ name: 'confirm', affected: roster.total });
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const block = await api.cancelBlock(placeId, blockRequest(draft));
      setStage({ name: 'done', block });
      setDraft((d) => ({ ...d, from: '', to: '', reason: '' }));
      setCancels((n) => n + 1);
      onCancelled();
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  };

  const summary = t('blockSummary', {
    day: draft.day ? formatDay(draft.day, lang, true) : '',
    from: draft.from || t('blockDayStart'),
    to: draft.to || t('blockDayEnd'),
    reason: draft.reason.trim(),
  });

  return (
    <section className="card" aria-labelledby="block-cancel">
      <h2 id="block-cancel">{t('blockTitle')}</h2>
      {stage.name === 'confirm' ? (
        <div className="confirm-box" role="group" aria-labelledby="block-question" data-testid="block-confirm">
          <h3>{t('blockConfirmTitle')}</h3>
          <p>{summary}</p>
          <p id="block-question"><strong>{t(confirmKey(stage.affected), { count: stage.affected })}</strong></p>
          <div className="actions">
            <button type="button" className="danger" disabled={busy} aria-busy={busy} onClick={() => void cancel()}>
              {busy ? t('blockSending') : t('blockConfirmYes')}
            </button>
            <button type="button" className="secondary" autoFocus disabled={busy} onClick={() => setStage({ name: 'form' })}>{t('blockConfirmNo')}</button>
          </div>
        </div>
      ) : (
        <>
          <p>{t('blockLead')}</p>
          <form className="block-cancel" onSubmit={(e) => void count(e)} noValidate>
            <div className="row">
              <Field label={t('blockDay')} name="block-day" type="date" value={draft.day} onChange={set('day')} required
                error={errors.day && t(errors.day)} />
              <Field label={t('blockFrom')} name="block-from" type="time" value={draft.from} onChange={set('from')} hint={t('blockFromHint')}
                error={errors.from && t(errors.from)} />
              <Field label={t('blockTo')} name="block-to" type="time" value={draft.to} onChange={set('to')} hint={t('blockToHint')}
                error={errors.to && t(errors.to)} />
            </div>
            <Field label={t('blockReason')} name="block-reason" autoComplete="off" maxLength={reasonMax} value={draft.reason} onChange={set('reason')} required
              hint={t('blockReasonCount', { count: draft.reason.length, max: reasonMax })} error={errors.reason && t(errors.reason)} />
            <div className="actions">
              <button type="submit" className="primary" disabled={busy} aria-busy={busy}>{busy ? t('blockCounting') : t('blockNext')}</button>
            </div>
          </form>
        </>
      )}
      {failure && <Notice kind="error">{failure}</Notice>}
      {stage.name === 'done' && (
        <Notice kind="success">
          {t(stage.block.created ? 'blockDone' : 'blockDoneBefore', { cancelled: stage.block.cancelled, kept: stage.block.kept })}
        </Notice>
      )}
      <StandingBlocks api={api} placeId={placeId} version={cancels} onReopened={onCancelled} onSignedOut={onSignedOut} />
    </section>
  );
}
