import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import type { Place, PlaceEdit } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { useAdminAction } from './useAdminAction';

/** An admin changes a published place: its name, address, region and opening hours; closes it to new bookings and reopens it. */
export function PlaceChangesCard({ admin }: { admin: AdminApi }) {
  const { t } = useI18n();
  const [id, setId] = useState('');
  const [place, setPlace] = useState<Place | null>(null);
  const [edit, setEdit] = useState<PlaceEdit>({ name: '', address: '', region: '', openingHours: '' });
  const [reason, setReason] = useState('');
  const [keepBookings, setKeepBookings] = useState(true);
  const { busy, result, run } = useAdminAction();
  const set = (field: keyof PlaceEdit) => (value: string) => setEdit((e) => ({ ...e, [field]: value }));

  const show = (loaded: Place) => {
    setPlace(loaded);
    setEdit({ name: loaded.name, address: loaded.address, region: loaded.region, openingHours: loaded.openingHours ?? '' });
  };

  const load = async (e: FormEvent) => {
    e.preventDefault();
    const loaded = await run(() => admin.place(Number(id)), (p) => p.name);
    if (loaded) show(loaded);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!place) return;
    const hours = edit.openingHours?.trim();
    const saved = await run(() => admin.editPlace(place.id, { ...edit, openingHours: hours ? hours : undefined }),
      (p) => t('placeSaved', { name: p.name }));
    if (saved) show(saved);
  };

  const close = async (e: FormEvent) => {
    e.preventDefault();
    if (!place) return;
    const closed = await run(() => admin.closePlace(place.id, { reason, keepBookings }),
      (r) => t('placeClosedDone', { days: r.days, cancelled: r.cancelled, kept: r.kept }));
    if (closed) setPlace({ ...place, closed: true });
  };

  const reopen = async () => {
    if (!place) return;
    const reopened = await run(() => admin.reopenPlace(place.id), (r) => t('placeReopenedDone', { days: r.days }));
    if (reopened) setPlace({ ...place, closed: false });
  };

  return (
    <section className="card" aria-labelledby="place-changes">
      <h2 id="place-changes">{t('placeChanges')}</h2>
      <form onSubmit={load}>
        <Field label={t('placeNumber')} value={id} onChange={setId} required inputMode="numeric" pattern="[1-9][0-9]*" />
        <button type="submit" className="secondary" disabled={busy}>{t('loadPlace')}</button>
      </form>
      {place && (
        <>
          <p>{t(place.closed ? 'placeStateClosed' : 'placeStateOpen')}</p>
          <form onSubmit={save}>
            <Field label={t('placeName')} value={edit.name} onChange={set('name')} required maxLength={200} />
            <Field label={t('address')} value={edit.address} onChange={set('address')} required maxLength={300} />
            <Field label={t('region')} value={edit.region} onChange={set('region')} required maxLength={100} />
            <Field label={t('openingHours')} value={edit.openingHours ?? ''} onChange={set('openingHours')} maxLength={500} />
            <button type="submit" className="primary" disabled={busy}>{t('savePlace')}</button>
          </form>
          {place.closed ? (
            <p className="place-close">
              <button type="button" className="primary" disabled={busy} onClick={() => void reopen()}>{t('reopenPlace')}</button>
            </p>
          ) : (
            <form className="place-close" onSubmit={close}>
              <Field label={t('closeReason')} value={reason} onChange={setReason} required maxLength={100} />
              <label className="check">
                <input type="checkbox" checked={keepBookings} onChange={(e) => setKeepBookings(e.target.checked)} /> {t('keepBookings')}
              </label>
              <button type="submit" className="secondary" disabled={busy}>{t('closePlace')}</button>
            </form>
          )}
        </>
      )}
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
    </section>
  );
}
