import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { useAdminAction } from './useAdminAction';

export function DemoDataForm({ admin }: { admin: AdminApi }) {
  const { t } = useI18n();
  const [values, setValues] = useState({ places: '5', days: '14', capacity: '4', seed: '' });
  const { busy, result, run } = useAdminAction();
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const create = (e: FormEvent) => {
    e.preventDefault();
    void run(
      () => admin.demoData({
        places: Number(values.places), days: Number(values.days), capacity: Number(values.capacity),
        seed: values.seed === '' ? undefined : Number(values.seed),
      }),
      (r) => t('demoCreated', { places: r.placesCreated, slots: r.slotsCreated }),
    );
  };

  return (
    <section className="card" aria-labelledby="demo">
      <h2 id="demo">{t('demoData')}</h2>
      <form onSubmit={create}>
        <div className="row">
          <Field label={t('places')} type="number" min={1} max={500} value={values.places} onChange={set('places')} required />
          <Field label={t('days')} type="number" min={1} max={60} value={values.days} onChange={set('days')} required />
          <Field label={t('capacity')} type="number" min={1} max={100} value={values.capacity} onChange={set('capacity')} required />
          <Field label={t('seed')} type="number" value={values.seed} onChange={set('seed')} />
        </div>
        <button type="submit" className="primary" disabled={busy}>{t('create')}</button>
      </form>
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
    </section>
  );
}
