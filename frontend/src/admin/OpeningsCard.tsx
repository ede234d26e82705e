import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import type { NewOpening, StaffOpening } from '../api/types';
import { dateLocale } from '../booking/dates';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { adminError } from './adminError';
import { useAdminAction } from './useAdminAction';

interface Values {
  region: string;
  placeIds: string;
  opensAt: string;
  admitPerSecond: string;
  admissionMinutes: string;
}

/** A datetime-local value (this browser's time zone) ten minutes from now. */
function inTenMinutes(): string {
  const at = new Date(Date.now() + 10 * 60_000);
  at.setSeconds(0, 0);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

function request(v: Values): NewOpening {
  const placeIds = v.placeIds.split(/[\s,;]+/).filter(Boolean).map(Number);
  return {
    region: v.region.trim() || undefined,
    placeIds: placeIds.length > 0 ? placeIds : undefined,
    // datetime-local has no zone: it is this browser's, sent with its offset.
    opensAt: new Date(v.opensAt).toISOString(),
    admitPerSecond: v.admitPerSecond.trim() ? Number(v.admitPerSecond) : undefined,
    admissionSeconds: Math.round(Number(v.admissionMinutes) * 60),
  };
}

/** Openings: announce one (a region or places, a time, a pace), see the counters, close it. */
export function OpeningsCard({ admin }: { admin: AdminApi }) {
  const { t, lang } = useI18n();
  const [values, setValues] = useState<Values>(() => ({ region: '', placeIds: '', opensAt: inTenMinutes(), admitPerSecond: '', admissionMinutes: '10' }));
  const [openings, setOpenings] = useState<StaffOpening[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const { busy, result, run } = useAdminAction();
  const set = (field: keyof Values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const refresh = useCallback(async () => {
    try {
      setOpenings(await admin.openings());
      setListError(null);
    } catch (error) {
      setListError(adminError(error, t));
    }
  }, [admin, t]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const announce = async (e: FormEvent) => {
    e.preventDefault();
    const created = await run(() => admin.createOpening(request(values)), (o) => t('openingCreated', { id: o.id }));
    if (created) await refresh();
  };

  const close = async (id: number) => {
    const closed = await run(() => admin.closeOpening(id), (o) => t('openingClosedDone', { id: o.id }));
    if (closed) await refresh();
  };

  const when = (iso: string) => new Date(iso).toLocaleString(dateLocale(lang), { dateStyle: 'short', timeStyle: 'short' });

  return (
    <section className="card" aria-labelledby="openings">
      <h2 id="openings">{t('openings')}</h2>
      <p className="muted">{t('openingsLead')}</p>
      <form onSubmit={announce}>
        <Field label={t('openingRegion')} value={values.region} onChange={set('region')} maxLength={100} hint={t('openingScopeHint')} />
        <Field label={t('openingPlaces')} value={values.placeIds} onChange={set('placeIds')} inputMode="numeric" />
        <Field label={t('opensAt')} type="datetime-local" value={values.opensAt} onChange={set('opensAt')} required />
        <Field label={t('admitPerSecond')} type="number" min={0.1} step={0.1} value={values.admitPerSecond} onChange={set('admitPerSecond')}
          hint={t('admitPerSecondHint')} />
        <Field label={t('admissionMinutes')} type="number" min={1} max={120} value={values.admissionMinutes} onChange={set('admissionMinutes')} required />
        <button type="submit" className="primary" disabled={busy}>{t('announce')}</button>
      </form>
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
      {listError && <Notice kind="error">{listError}</Notice>}
      {openings && openings.length === 0 && <p>{t('noOpenings')}</p>}
      {openings && openings.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">{t('openings')}</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t('openingScope')}</th>
                <th scope="col">{t('opensAt')}</th>
                <th scope="col">{t('openingState')}</th>
                <th scope="col">{t('openingJoined')}</th>
                <th scope="col">{t('openingServed')}</th>
                <th scope="col">{t('roomSeatsLeft')}</th>
                <th scope="col"><span className="sr-only">{t('closeOpening')}</span></th>
              </tr>
            </thead>
            <tbody>
              {openings.map((o) => (
                <tr key={o.id} data-testid={`opening-${o.id}`}>
                  <td>{o.id}</td>
                  <td>{o.region ?? o.placeIds.join(', ')}</td>
                  <td>{when(o.opensAt)}</td>
                  <td>{o.state === 'open' ? t('openingOpen') : t('openingClosed')}</td>
                  <td>{o.joined}</td>
                  <td>{o.served}</td>
                  <td>{o.seatsLeft}</td>
                  <td>
                    {o.state === 'open' && (
                      <button type="button" className="secondary" disabled={busy} onClick={() => void close(o.id)}
                        aria-label={t('closeOpeningNumber', { id: o.id })}>
                        {t('closeOpening')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
