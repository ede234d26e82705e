import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import { ApiError } from '../api/http';
import type { AdminService, Offer, Place } from '../api/types';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { adminError } from './adminError';
import { emptyOffer, type FieldErrors, type OfferDraft, type OfferField, offerProblemErrors, serviceOffer, validateOffer } from './serviceForms';
import { useServiceI18n } from './serviceTexts';

type Result = { kind: 'success' | 'error'; text: string };

/**
 * What one place offers: each service it has an offer of, offered or stopped, with the seats per slot
 * and daily template that generation uses, and a form that offers a service there, changes the offer
 * (filled in from it), or stops it.
 */
export function PlaceServicesCard({ admin, catalogue }: { admin: AdminApi; catalogue: AdminService[] }) {
  const { t, lang } = useServiceI18n();
  const [id, setId] = useState('');
  const [place, setPlace] = useState<Place | null>(null);
  const [offers, setOffers] = useState<Offer[]>([]);
  const [draft, setDraft] = useState<OfferDraft>(emptyOffer);
  const [errors, setErrors] = useState<FieldErrors<OfferField>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const set = (field: keyof OfferDraft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const named = (code: string) => catalogue.find((s) => s.code === code);
  // The form offers the services the place has an offer of, and any other active service of the catalogue.
  const choices = [...offers.map((o) => o.service),
    ...catalogue.filter((s) => s.active && !offers.some((o) => o.service === s.code)).map((s) => s.code)];
  const chosen = draft.service || choices[0] || '';
  const label = (code: string) => {
    const service = named(code);
    return service ? `${lang === 'sk' ? service.nameSk : service.nameEn} (${code})` : code;
  };

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
    const loaded = await attempt(() => Promise.all([admin.place(Number(id)), admin.offers(Number(id))]));
    if (loaded) {
      setPlace(loaded[0]);
      setOffers(loaded[1]);
      setDraft(emptyOffer);
    }
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
      // The offers as they now stand, in the catalogue's order.
      setOffers(await admin.offers(place.id));
      return offer;
    });
    if (saved) setResult({ kind: 'success', text: describe(saved) });
  };

  // The form filled in from the offer as stored: a stopped one is offered again by saving it ticked.
  const change = (o: Offer) => {
    setDraft({
      service: o.service,
      seats: o.seats ? String(o.seats) : emptyOffer.seats,
      firstStart: o.template?.firstStart ?? emptyOffer.firstStart,
      lastStart: o.template?.lastStart ?? emptyOffer.lastStart,
      interval: o.template ? String(o.template.intervalMinutes) : emptyOffer.interval,
      length: o.template ? String(o.template.lengthMinutes) : emptyOffer.length,
      active: true,
    });
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
          {offers.length === 0 ? <p>{t('placeServicesNone')}</p> : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">{t('placeServicesOf', { name: place.name })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('serviceCode')}</th>
                    <th scope="col">{t('serviceName')}</th>
                    <th scope="col">{t('offerSeats')}</th>
                    <th scope="col">{t('offerTemplate')}</th>
                    <th scope="col">{t('serviceState')}</th>
                    <th scope="col"><span className="sr-only">{t('serviceActions')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {offers.map((o) => (
                    <tr key={o.service} data-testid={`offer-${o.service}`} data-active={o.active}>
                      <th scope="row">{o.service}</th>
                      <td>{named(o.service) ? (lang === 'sk' ? named(o.service)!.nameSk : named(o.service)!.nameEn) : ''}</td>
                      <td>{o.seats ?? '—'}</td>
                      <td>{o.template
                        ? t('offerTemplateValue', { first: o.template.firstStart, last: o.template.lastStart, interval: o.template.intervalMinutes,
                          length: o.template.lengthMinutes })
                        : t('offerNoTemplate')}</td>
                      <td>{t(o.active ? 'offerStateOn' : 'offerStateOff')}</td>
                      <td>
                        <button type="button" className="secondary" disabled={busy} onClick={() => change(o)}
                          aria-label={t('changeOfferNamed', { code: o.service })}>{t('changeOffer')}</button>
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
                {choices.map((code) => <option key={code} value={code}>{label(code)}</option>)}
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
