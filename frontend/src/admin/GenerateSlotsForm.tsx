import { type FormEvent, useEffect, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import type { GenerateResult, Place, Service } from '../api/types';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { generateRequest, type GenerateValues, initialGenerateValues, placeIdsOf, serviceChoices } from './generateRequest';
import { useServiceI18n } from './serviceTexts';
import { useAdminAction } from './useAdminAction';

/** Preview first (a dry run counts what would be made), then generate exactly that, for the service chosen. */
export function GenerateSlotsForm({ admin, catalogue }: { admin: AdminApi; catalogue: Service[] }) {
  const { t, lang } = useServiceI18n();
  const [values, setValues] = useState<GenerateValues>(() => initialGenerateValues());
  const [previewed, setPreviewed] = useState<GenerateValues | null>(null);
  const [place, setPlace] = useState<Place | null>(null);
  const { busy, result, run } = useAdminAction();
  const change = (next: Partial<GenerateValues>) => {
    setValues((v) => ({ ...v, ...next }));
    setPreviewed(null);
  };
  const set = (field: keyof GenerateValues) => (value: string) => change({ [field]: value });
  const counts = (r: GenerateResult) => ({ slots: r.slotsCreated, seats: r.seatsCreated, places: r.places, existing: r.slotsExisting });

  // One place named: its own services are the choice (read once typing pauses); otherwise the catalogue's.
  const ids = placeIdsOf(values.placeIds);
  const single = ids.length === 1 && Number.isInteger(ids[0]) && ids[0] > 0 ? ids[0] : null;
  useEffect(() => {
    setPlace(null);
    if (single === null) return;
    let current = true;
    const timer = setTimeout(() => {
      admin.place(single).then((p) => current && setPlace(p), () => undefined);
    }, 400);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [admin, single]);

  const { choices, chosen } = serviceChoices(catalogue, place);
  const choiceKey = choices.map((c) => c.code).join(' ');
  // A new list of choices chooses again; a preview stays valid where that leaves the service as it was.
  useEffect(() => {
    if (values.service !== chosen) change({ service: chosen });
  }, [choiceKey, chosen]);

  const preview = async (e: FormEvent) => {
    e.preventDefault();
    const snapshot = values;
    const outcome = await run(() => admin.generateSlots(generateRequest(snapshot, true)), (r) => t('previewResult', counts(r)));
    if (outcome) setPreviewed(snapshot);
  };

  const generate = async () => {
    if (!previewed) return;
    await run(() => admin.generateSlots(generateRequest(previewed, false)), (r) => t('generated', counts(r)));
    setPreviewed(null);
  };

  return (
    <section className="card" aria-labelledby="generate">
      <h2 id="generate">{t('generate')}</h2>
      <form onSubmit={preview}>
        <Field label={t('placeIds')} value={values.placeIds} onChange={set('placeIds')} inputMode="numeric" />
        <div className="field">
          <label htmlFor="generate-service">{t('generateService')}</label>
          <p id="generate-service-hint" className="hint">{t('generateServiceHint')}</p>
          <select id="generate-service" aria-describedby="generate-service-hint" value={values.service}
            onChange={(e) => change({ service: e.target.value })}>
            {choices.length === 0 && <option value={chosen}>{chosen}</option>}
            {choices.map((s) => <option key={s.code} value={s.code}>{lang === 'sk' ? s.nameSk : s.nameEn} ({s.code})</option>)}
          </select>
        </div>
        <div className="row">
          <Field label={t('from')} type="date" value={values.from} onChange={set('from')} required />
          <Field label={t('to')} type="date" value={values.to} onChange={set('to')} required />
        </div>
        <label className="check">
          <input type="checkbox" checked={values.fromOffer} onChange={(e) => change({ fromOffer: e.target.checked })} /> {t('generateFromOffer')}
        </label>
        {!values.fromOffer && (
          <>
            <div className="row">
              <Field label={t('firstStart')} type="time" value={values.firstStart} onChange={set('firstStart')} required />
              <Field label={t('lastStart')} type="time" value={values.lastStart} onChange={set('lastStart')} required />
            </div>
            <div className="row">
              <Field label={t('interval')} type="number" min={5} max={720} value={values.interval} onChange={set('interval')} required />
              <Field label={t('length')} type="number" min={5} max={720} value={values.length} onChange={set('length')} required />
              <Field label={t('capacity')} type="number" min={1} max={10000} value={values.capacity} onChange={set('capacity')} required />
            </div>
          </>
        )}
        <div className="actions">
          <button type="submit" className="secondary" disabled={busy}>{t('preview')}</button>
          <button type="button" className="primary" disabled={busy || !previewed} onClick={() => void generate()}>{t('generateNow')}</button>
        </div>
      </form>
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
    </section>
  );
}
