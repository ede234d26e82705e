import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import { ApiError } from '../api/http';
import type { AdminService } from '../api/types';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { adminError } from './adminError';
import { draftOf, type EligibilityDraft, type EligibilityError, eligibilityRequest, type StepDraft } from './eligibilityForm';
import { useServiceI18n } from './serviceTexts';

type Result = { kind: 'success' | 'error'; text: string };

/**
 * Who may book a service: everyone, by age in dated steps (from each step's moment on, people born
 * on or before its date; optionally an invitation code admits earlier), or invitation code holders
 * only. Filled in from the service as stored; the API judges every booking by it.
 */
export function EligibilityCard({ admin, catalogue, onSaved }: { admin: AdminApi; catalogue: AdminService[]; onSaved: () => Promise<void> }) {
  const { t, lang } = useServiceI18n();
  const [code, setCode] = useState('');
  const [draft, setDraft] = useState<EligibilityDraft>({ rule: 'everyone', steps: [] });
  const [errors, setErrors] = useState<Record<string, EligibilityError | string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const chosen = code || catalogue[0]?.code || '';

  const choose = (next: string) => {
    setCode(next);
    setDraft(draftOf(catalogue.find((s) => s.code === next)));
    setErrors({});
    setResult(null);
  };
  const setStep = (i: number, field: keyof StepDraft) => (value: string) =>
    setDraft((d) => ({ ...d, steps: d.steps.map((s, j) => (j === i ? { ...s, [field]: value } : s)) }));
  const error = (key: string) => {
    const e = errors[key];
    return e === undefined ? undefined : e.startsWith('err') ? t(e as EligibilityError) : e;
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    const built = eligibilityRequest(draft);
    if ('errors' in built) {
      setErrors(built.errors);
      setResult({ kind: 'error', text: t('formErrors') });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const saved = await admin.setEligibility(chosen, built.request);
      setDraft(draftOf(saved));
      setResult({ kind: 'success', text: t(savedKey(saved), { code: saved.code }) });
      await onSaved();
    } catch (failure) {
      const fields = failure instanceof ApiError && failure.problem.errors
        ? Object.fromEntries(Object.entries(failure.problem.errors).map(([field, messages]) => [field, messages.join(' ')]))
        : {};
      setErrors(fields);
      setResult({ kind: 'error', text: Object.keys(fields).length > 0 ? t('formErrors') : adminError(failure, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="eligibility">
      <h2 id="eligibility">{t('eligibilityTitle')}</h2>
      <p>{t('eligibilityLead')}</p>
      <form onSubmit={save} noValidate>
        <div className="field">
          <label htmlFor="eligibility-service">{t('eligibilityService')}</label>
          <select id="eligibility-service" value={chosen} onChange={(e) => choose(e.target.value)}>
            {catalogue.map((s) => <option key={s.code} value={s.code}>{lang === 'sk' ? s.nameSk : s.nameEn} ({s.code})</option>)}
          </select>
        </div>
        <fieldset>
          <legend>{t('eligibilityRule')}</legend>
          <label className="check">
            <input type="radio" name="eligibility-rule" checked={draft.rule === 'everyone'} onChange={() => setDraft((d) => ({ ...d, rule: 'everyone' }))} />
            {' '}{t('eligibilityEveryone')}
          </label>
          <label className="check">
            <input type="radio" name="eligibility-rule" checked={draft.rule === 'age'}
              onChange={() => setDraft((d) => ({ ...d, rule: 'age', steps: d.steps.length > 0 ? d.steps : [{ opensAt: '', bornOnOrBefore: '' }] }))} />
            {' '}{t('eligibilityAge')}
          </label>
          <label className="check">
            <input type="radio" name="eligibility-rule" checked={draft.rule === 'invitation'} onChange={() => setDraft((d) => ({ ...d, rule: 'invitation' }))} />
            {' '}{t('eligibilityInvitation')}
          </label>
        </fieldset>
        {draft.rule === 'age' && (
          <>
            {error('steps') && <p className="error">{error('steps')}</p>}
            {draft.steps.map((step, i) => (
              <div className="row" key={i}>
                <Field label={t('eligibilityOpensAt', { n: i + 1 })} type="datetime-local" value={step.opensAt} onChange={setStep(i, 'opensAt')}
                  error={error(`steps[${i}].opensAt`)} />
                <Field label={t('eligibilityBornBy', { n: i + 1 })} type="date" value={step.bornOnOrBefore} onChange={setStep(i, 'bornOnOrBefore')}
                  error={error(`steps[${i}].bornOnOrBefore`)} />
                <button type="button" className="secondary" onClick={() => setDraft((d) => ({ ...d, steps: d.steps.filter((_, j) => j !== i) }))}>
                  {t('eligibilityRemoveStep', { n: i + 1 })}
                </button>
              </div>
            ))}
            <p>
              <button type="button" className="secondary" onClick={() => setDraft((d) => ({ ...d, steps: [...d.steps, { opensAt: '', bornOnOrBefore: '' }] }))}>
                {t('eligibilityAddStep')}
              </button>
            </p>
            <label className="check">
              <input type="checkbox" checked={draft.acceptsInvitations === true}
                onChange={(e) => setDraft((d) => ({ ...d, acceptsInvitations: e.target.checked }))} />
              {' '}{t('eligibilityAcceptsInvitations')}
            </label>
            {error('acceptsInvitations') && <p className="error">{error('acceptsInvitations')}</p>}
          </>
        )}
        <button type="submit" className="primary" disabled={busy || !chosen}>{t('eligibilitySave')}</button>
      </form>
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
    </section>
  );
}

/** What the saved rule is, in a sentence's key. */
function savedKey(saved: AdminService) {
  const who = saved.eligibility;
  if (who?.rule === 'invitation') return 'eligibilitySavedInvitation';
  if (who?.rule !== 'age') return 'eligibilitySavedEveryone';
  return who.acceptsInvitations ? 'eligibilitySavedAgeInvitations' : 'eligibilitySavedAge';
}
