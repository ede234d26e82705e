import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import { ApiError } from '../api/http';
import type { Offer, Place, Service } from '../api/types';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { adminError } from './adminError';
import { emptyOffer, type FieldErrors, type OfferDraft, type OfferField, offerProblemErrors, serviceOffer, validateOffer } from './serviceForms';
import { useServiceI18n } from './serviceTexts';

type Result = { kind: 'success' | 'error'; text: string };

/**
 * What one place offers: its services as its page lists them, and a form that offers a service there
 * (seats per slot and the daily template that generation uses), changes the offer, or stops it.
 */
export function PlaceServicesCard({ admin, catalogue }: { admin: AdminApi; catalogue: Service[] }) {
  const { t, lang } = useServiceI18n();
  const [id, setId] = useState('');
  const [place, setPlace] = useState<Place | null>(null);
  const [draft, setDraft] = useState<OfferDraft>(emptyOffer);
  const [errors, setErrors] = useState<FieldErrors<OfferField>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const set = (field: keyof OfferDraft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const offered = place?.services ?? [];
  // The form offers any active service of the catalogue, and those the place lists (whatever the catalogue's state).
  const choices = [...offered, ...catalogue.filter((s) => !offered.some((o) => o.code === s.code))];
  const chosen = draft.service || choices[0]?.code || '';

  const attempt = async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setResult(null);
    try {
      return await action();
    } catch (error) {
      const fields = error instanceof ApiError ? offerProblemErrors(error.problem) : {};
      setErrors(fields);
      setResult({ kind: 'error', text: Object.keys(fields).length > 0 ? t('formErrors') : adminError(error, t) });
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const load = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    const loaded = await attempt(() => admin.place(Number(id)));
    if (loaded) setPlace(loaded);
  };

  const describe = (o: Offer) => t('offerSaved', {
    code: o.service,
    state: t(o.active ? 'offerStateOn' : 'offerStateOff'),
    seats: o.seats ?? '—',
    first: o.template?.firstStart ?? '—',
    last: o.template?.lastStart ?? '—',
    interval: o.template?.intervalMinutes ?? '—',
    length: o.template?.lengthMinutes ?? '—',
  });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!place || !chosen) return;
    const found = validateOffer(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return setResult({ kind: 'error', text: t('formErrors') });
    const saved = await attempt(async () => {
      const offer = await admin.offerService(place.id, chosen, serviceOffer(draft));
      // The place's page as it now stands: the services it offers, in the catalogue's order.
      setPlace(await admin.place(place.id));
      return offer;
    });
    if (saved) setResult({ kind: 'success', text: describe(saved) });
  };

  const change = (code: string, minutes?: number | null) => {
    setDraft((d) => ({ ...d, service: code, length: minutes ? String(minutes) : d.length, active: true }));
    setErrors({});
    document.getElementById('offer-service')?.focus();
  };

  return (
    <section className="card" aria-labelledby="place-services">
      <h2 id="place-services">{t('placeServicesTitle')}</h2>
      <p className="muted">{t('placeServicesLead')}</p>
      <form onSubmit={(e) => void load(e)}>
        <Field label={t('placeNumber')} name="offer-place" value={id} onChange={setId} required inputMode="numeric" pattern="[1-9][0-9]*" />
        <button type="submit" className="secondary" disabled={busy}>{t('loadPlace')}</button>
      </form>
      {place && (
        <>
          <h3>{t('placeServicesOf', { name: place.name })}</h3>
          {offered.length === 0 ? <p>{t('placeServicesNone')}</p> : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">{t('placeServicesOf', { name: place.name })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('serviceCode')}</th>
                    <th scope="col">{t('serviceName')}</th>
                    <th scope="col">{t('offerLength')}</th>
                    <th scope="col"><span className="sr-only">{t('serviceActions')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {offered.map((s) => (
                    <tr key={s.code} data-testid={`offer-${s.code}`}>
                      <th scope="row">{s.code}</th>
                      <td>{lang === 'sk' ? s.nameSk : s.nameEn}</td>
                      <td>{s.minutes ? t('offerLengthValue', { minutes: s.minutes }) : t('offerNoTemplate')}</td>
                      <td>
                        <button type="button" className="secondary" disabled={busy} onClick={() => change(s.code, s.minutes)}
                          aria-label={t('changeOfferNamed', { code: s.code })}>{t('changeOffer')}</button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <form onSubmit={(e) => void save(e)} noValidate>
            <div className="field">
              <label htmlFor="offer-service">{t('offerService')}</label>
              <select id="offer-service" value={chosen} onChange={(e) => setDraft((d) => ({ ...d, service: e.target.value }))}>
                {choices.map((s) => <option key={s.code} value={s.code}>{lang === 'sk' ? s.nameSk : s.nameEn} ({s.code})</option>)}
              </select>
            </div>
            <Field label={t('offerSeats')} type="number" min={1} max={10000} value={draft.seats} onChange={set('seats')} required
              error={errors.seats && t(errors.seats)} />
            <div className="row">
              <Field label={t('firstStart')} type="time" value={draft.firstStart} onChange={set('firstStart')} required
                error={errors.firstStart && t(errors.firstStart)} />
              <Field label={t('lastStart')} type="time" value={draft.lastStart} onChange={set('lastStart')} required
                error={errors.lastStart && t(errors.lastStart)} />
            </div>
            <div className="row">
              <Field label={t('interval')} type="number" min={5} max={720} value={draft.interval} onChange={set('interval')} required
                error={errors.interval && t(errors.interval)} />
              <Field label={t('length')} type="number" min={5} max={720} value={draft.length} onChange={set('length')} required
                error={errors.length && t(errors.length)} />
            </div>
            <label className="check">
              <input type="checkbox" checked={draft.active} onChange={(e) => setDraft((d) => ({ ...d, active: e.target.checked }))} /> {t('offerActive')}
            </label>
            <button type="submit" className="primary" disabled={busy || !chosen}>{t('saveOffer')}</button>
          </form>
        </>
      )}
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
    </section>
  );
}
