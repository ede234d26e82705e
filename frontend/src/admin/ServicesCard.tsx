import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import { ApiError } from '../api/http';
import type { AdminService } from '../api/types';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { adminError } from './adminError';
import {
  emptyService, type FieldErrors, nameMax, newService, serviceDraft, type ServiceDraft, serviceEdit, type ServiceField, serviceProblemErrors,
  validateService,
} from './serviceForms';
import { useServiceI18n } from './serviceTexts';

interface ServicesCardProps {
  admin: AdminApi;
  catalogue: { services: AdminService[]; error: unknown; reload: () => Promise<void> };
}

type Result = { kind: 'success' | 'error'; text: string };

/**
 * The catalogue's services, active or not (GET /api/admin/services): the list, a form that adds one or
 * changes one (names, second dose, state), and switching one off.
 */
export function ServicesCard({ admin, catalogue }: ServicesCardProps) {
  const { t, lang } = useServiceI18n();
  const [draft, setDraft] = useState<ServiceDraft>(emptyService);
  const [editing, setEditing] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors<ServiceField>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const set = (field: 'code' | 'nameSk' | 'nameEn' | 'minDays' | 'maxDays') => (value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const name = (s: AdminService) => (lang === 'sk' ? s.nameSk : s.nameEn);

  const rows = catalogue.services.map((service) => ({ service, active: service.active }));

  // A refusal naming fields goes beside them; any other is said once.
  const send = async (action: () => Promise<AdminService>, describe: (s: AdminService) => string): Promise<AdminService | undefined> => {
    setBusy(true);
    setResult(null);
    try {
      const saved = await action();
      setResult({ kind: 'success', text: describe(saved) });
      await catalogue.reload();
      return saved;
    } catch (error) {
      const fields = error instanceof ApiError ? serviceProblemErrors(error.problem) : {};
      setErrors(fields);
      setResult({ kind: 'error', text: Object.keys(fields).length > 0 ? t('formErrors') : adminError(error, t) });
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const startEdit = (service: AdminService, active: boolean) => {
    setEditing(service.code);
    setDraft(serviceDraft(service, active));
    setErrors({});
    setResult(null);
  };

  const stopEdit = () => {
    setEditing(null);
    setDraft(emptyService);
    setErrors({});
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateService(editing ? { ...draft, code: editing } : draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return setResult({ kind: 'error', text: t('formErrors') });
    const saved = editing
      ? await send(() => admin.editService(editing, serviceEdit(draft)), (s) => t('serviceSaved', { name: name(s), code: s.code }))
      : await send(() => admin.createService(newService(draft)), (s) => t('serviceCreated', { name: name(s), code: s.code }));
    if (saved) stopEdit();
  };

  const switchOff = async (service: AdminService) => {
    const off = await send(() => admin.editService(service.code, { ...serviceEdit(serviceDraft(service)), active: false }),
      (s) => t('serviceDeactivated', { name: name(s), code: s.code }));
    if (off && editing === service.code) stopEdit();
  };

  const doses = (s: AdminService) => (s.secondDose ? t('serviceDosesTwo', { min: s.secondDose.minDays, max: s.secondDose.maxDays }) : t('serviceDosesOne'));

  return (
    <section className="card" aria-labelledby="services">
      <h2 id="services">{t('servicesTitle')}</h2>
      <p className="muted">{t('servicesLead')}</p>
      {catalogue.error !== null && <Notice kind="error">{adminError(catalogue.error, t)}</Notice>}
      {rows.length === 0 ? <p>{t('noServices')}</p> : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">{t('serviceList')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('serviceCode')}</th>
                <th scope="col">{t('serviceName')}</th>
                <th scope="col">{t('serviceDoses')}</th>
                <th scope="col">{t('serviceState')}</th>
                <th scope="col"><span className="sr-only">{t('serviceActions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ service, active }) => (
                <tr key={service.code} data-testid={`service-${service.code}`}>
                  <th scope="row">{service.code}</th>
                  <td>{name(service)}</td>
                  <td>{doses(service)}</td>
                  <td>{t(active ? 'serviceStateActive' : 'serviceStateInactive')}</td>
                  <td>
                    <button type="button" className="secondary" disabled={busy} onClick={() => startEdit(service, active)}
                      aria-label={t('editServiceNamed', { code: service.code })}>{t('editService')}</button>{' '}
                    {active && (
                      <button type="button" className="secondary" disabled={busy} onClick={() => void switchOff(service)}
                        aria-label={t('deactivateServiceNamed', { code: service.code })}>{t('deactivateService')}</button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={editing ? t('editingService', { code: editing }) : t('createService')}>
        {editing ? <h3>{t('editingService', { code: editing })}</h3> : (
          <Field label={t('serviceCode')} name="service-code" autoComplete="off" spellCheck={false} value={draft.code} onChange={set('code')}
            required maxLength={32} hint={t('serviceCodeHint')} error={errors.code && t(errors.code)} />
        )}
        <div className="row">
          <Field label={t('serviceNameSk')} name="service-name-sk" value={draft.nameSk} onChange={set('nameSk')} required maxLength={nameMax}
            error={errors.nameSk && t(errors.nameSk)} />
          <Field label={t('serviceNameEn')} name="service-name-en" value={draft.nameEn} onChange={set('nameEn')} required maxLength={nameMax}
            error={errors.nameEn && t(errors.nameEn)} />
        </div>
        <label className="check">
          <input type="checkbox" checked={draft.twoDoses} onChange={(e) => setDraft((d) => ({ ...d, twoDoses: e.target.checked }))} /> {t('serviceTwoDoses')}
        </label>
        {draft.twoDoses && (
          <div className="row">
            <Field label={t('serviceMinDays')} type="number" min={1} max={365} value={draft.minDays} onChange={set('minDays')} required
              error={errors.minDays && t(errors.minDays)} />
            <Field label={t('serviceMaxDays')} type="number" min={1} max={365} value={draft.maxDays} onChange={set('maxDays')} required
              error={errors.maxDays && t(errors.maxDays)} />
          </div>
        )}
        <label className="check">
          <input type="checkbox" checked={draft.active} onChange={(e) => setDraft((d) => ({ ...d, active: e.target.checked }))} /> {t('serviceActive')}
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>{t(editing ? 'saveService' : 'createService')}</button>
          {editing && <button type="button" className="secondary" disabled={busy} onClick={stopEdit}>{t('cancelEdit')}</button>}
        </div>
      </form>
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
    </section>
  );
}
