import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import type { NewPlace } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { useAdminAction } from './useAdminAction';

const empty: NewPlace = { name: '', address: '', region: '', timeZone: 'Europe/Bratislava', active: true };

export function CreatePlaceForm({ admin }: { admin: AdminApi }) {
  const { t } = useI18n();
  const [place, setPlace] = useState<NewPlace>(empty);
  const { busy, result, run } = useAdminAction();
  const set = (field: keyof NewPlace) => (value: string) => setPlace((p) => ({ ...p, [field]: value }));

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const created = await run(() => admin.createPlace(place), (p) => t('placeCreated', { name: p.name, id: p.id }));
    if (created) setPlace(empty);
  };

  return (
    <section className="card" aria-labelledby="create-place">
      <h2 id="create-place">{t('createPlace')}</h2>
      <form onSubmit={create}>
        <Field label={t('placeName')} value={place.name} onChange={set('name')} required maxLength={200} />
        <Field label={t('address')} value={place.address} onChange={set('address')} required maxLength={300} />
        <Field label={t('region')} value={place.region} onChange={set('region')} required maxLength={100} />
        <Field label={t('timeZone')} value={place.timeZone} onChange={set('timeZone')} required />
        <label className="check">
          <input type="checkbox" checked={place.active} onChange={(e) => setPlace((p) => ({ ...p, active: e.target.checked }))} /> {t('active')}
        </label>
        <button type="submit" className="primary" disabled={busy}>{t('create')}</button>
      </form>
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
    </section>
  );
}
