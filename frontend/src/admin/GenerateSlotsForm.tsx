import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import type { GenerateResult, GenerateSlots } from '../api/types';
import { addDays } from '../booking/dates';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { useAdminAction } from './useAdminAction';

interface Values {
  placeIds: string;
  from: string;
  to: string;
  firstStart: string;
  lastStart: string;
  interval: string;
  length: string;
  capacity: string;
}

function initialValues(): Values {
  const today = new Date().toISOString().slice(0, 10);
  return { placeIds: '', from: today, to: addDays(today, 6), firstStart: '08:00', lastStart: '15:45', interval: '15', length: '15', capacity: '4' };
}

function request(v: Values, dryRun: boolean): GenerateSlots {
  return {
    placeIds: v.placeIds.split(/[\s,;]+/).filter(Boolean).map(Number),
    from: v.from,
    to: v.to,
    template: { firstStart: v.firstStart, lastStart: v.lastStart, intervalMinutes: Number(v.interval), lengthMinutes: Number(v.length) },
    capacity: Number(v.capacity),
    dryRun,
  };
}

/** Preview first (a dry run counts what would be made), then generate exactly that. */
export function GenerateSlotsForm({ admin }: { admin: AdminApi }) {
  const { t } = useI18n();
  const [values, setValues] = useState<Values>(initialValues);
  const [previewed, setPreviewed] = useState<Values | null>(null);
  const { busy, result, run } = useAdminAction();
  const set = (field: keyof Values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setPreviewed(null);
  };
  const counts = (r: GenerateResult) => ({ slots: r.slotsCreated, seats: r.seatsCreated, places: r.places, existing: r.slotsExisting });

  const preview = async (e: FormEvent) => {
    e.preventDefault();
    const snapshot = values;
    const outcome = await run(() => admin.generateSlots(request(snapshot, true)), (r) => t('previewResult', counts(r)));
    if (outcome) setPreviewed(snapshot);
  };

  const generate = async () => {
    if (!previewed) return;
    await run(() => admin.generateSlots(request(previewed, false)), (r) => t('generated', counts(r)));
    setPreviewed(null);
  };

  return (
    <section className="card" aria-labelledby="generate">
      <h2 id="generate">{t('generate')}</h2>
      <form onSubmit={preview}>
        <Field label={t('placeIds')} value={values.placeIds} onChange={set('placeIds')} inputMode="numeric" />
        <div className="row">
          <Field label={t('from')} type="date" value={values.from} onChange={set('from')} required />
          <Field label={t('to')} type="date" value={values.to} onChange={set('to')} required />
        </div>
        <div className="row">
          <Field label={t('firstStart')} type="time" value={values.firstStart} onChange={set('firstStart')} required />
          <Field label={t('lastStart')} type="time" value={values.lastStart} onChange={set('lastStart')} required />
        </div>
        <div className="row">
          <Field label={t('interval')} type="number" min={5} max={720} value={values.interval} onChange={set('interval')} required />
          <Field label={t('length')} type="number" min={5} max={720} value={values.length} onChange={set('length')} required />
          <Field label={t('capacity')} type="number" min={1} max={10000} value={values.capacity} onChange={set('capacity')} required />
        </div>
        <div className="actions">
          <button type="submit" className="secondary" disabled={busy}>{t('preview')}</button>
          <button type="button" className="primary" disabled={busy || !previewed} onClick={() => void generate()}>{t('generateNow')}</button>
        </div>
      </form>
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
    </section>
  );
}
