import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import { ApiError } from '../api/http';
import type { AdminService, BookingInTheWay } from '../api/types';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { adminError } from './adminError';
import { type CapacityDraft, type CapacityError, type CapacityField, capacityRequest, emptyCapacity } from './capacityForm';
import { useServiceI18n } from './serviceTexts';

type Result = { kind: 'success' | 'error'; text: string };

/**
 * Adds or cuts seats of a place's published slots of one service. A cut below what a slot has booked
 * changes nothing; the card then lists the bookings in the way, as the API names them.
 */
export function CapacityCard({ admin, catalogue }: { admin: AdminApi; catalogue: AdminService[] }) {
  const { t, lang } = useServiceI18n();
  const [draft, setDraft] = useState<CapacityDraft>(emptyCapacity);
  const [errors, setErrors] = useState<Partial<Record<CapacityField, CapacityError>>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [blocked, setBlocked] = useState<BookingInTheWay[]>([]);
  const set = (field: CapacityField) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const error = (field: CapacityField) => (errors[field] ? t(errors[field]) : undefined);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    setBlocked([]);
    const request = capacityRequest(draft);
    if ('errors' in request) {
      setErrors(request.errors);
      setResult({ kind: 'error', text: t('formErrors') });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const done = await admin.setCapacity(request.place, request.change);
      setResult({
        kind: 'success',
        text: t('capacityDone', { slots: done.slots, added: done.seatsAdded, held: done.heldForWaitingList, removed: done.seatsRemoved }),
      });
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'capacity-below-booked') {
        setBlocked(failure.problem.bookings ?? []);
        setResult({ kind: 'error', text: t('capacityBlocked') });
      } else {
        setResult({ kind: 'error', text: adminError(failure, t) });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="capacity">
      <h2 id="capacity">{t('capacityTitle')}</h2>
      <p>{t('capacityLead')}</p>
      <form onSubmit={submit} noValidate>
        <Field label={t('capacityPlace')} value={draft.place} onChange={set('place')} inputMode="numeric" required error={error('place')} />
        <div className="field">
          <label htmlFor="capacity-service">{t('capacityService')}</label>
          <select id="capacity-service" value={draft.service} onChange={(e) => set('service')(e.target.value)}>
            <option value="">{t('capacityAnyService')}</option>
            {catalogue.filter((s) => s.active).map((s) => (
              <option key={s.code} value={s.code}>{lang === 'sk' ? s.nameSk : s.nameEn} ({s.code})</option>
            ))}
          </select>
        </div>
        <div className="row">
          <Field label={t('from')} type="date" value={draft.from} onChange={set('from')} required error={error('from')} />
          <Field label={t('to')} type="date" value={draft.to} onChange={set('to')} required error={error('to')} />
        </div>
        <Field label={t('capacityTime')} value={draft.time} onChange={set('time')} placeholder="08:30" error={error('time')} />
        <Field label={t('capacitySeats')} value={draft.seats} onChange={set('seats')} inputMode="numeric" required error={error('seats')} />
        <button type="submit" className="primary" disabled={busy}>{t('capacitySet')}</button>
      </form>
      {result && <Notice kind={result.kind}>{result.text}</Notice>}
      {blocked.length > 0 && (
        <ul className="capacity-blocked">
          {blocked.map((b) => <li key={b.code}><code>{b.code}</code> {b.day} {b.time}</li>)}
        </ul>
      )}
    </section>
  );
}
