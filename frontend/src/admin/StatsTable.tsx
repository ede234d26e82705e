import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import type { Stats } from '../api/types';
import { addDays, formatDay } from '../booking/dates';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { adminError } from './adminError';

export function StatsTable({ admin }: { admin: AdminApi }) {
  const { t, lang } = useI18n();
  const today = new Date().toISOString().slice(0, 10);
  const [range, setRange] = useState({ from: today, to: addDays(today, 13) });
  const [stats, setStats] = useState<Stats | null>(null);
  const [error, setError] = useState<string | null>(null);

  const show = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      setStats(await admin.stats(range.from, range.to));
    } catch (err) {
      setError(adminError(err, t));
    }
  };

  return (
    <section className="card" aria-labelledby="stats">
      <h2 id="stats">{t('stats')}</h2>
      <form onSubmit={show} className="row">
        <Field label={t('from')} type="date" value={range.from} onChange={(from) => setRange((r) => ({ ...r, from }))} required />
        <Field label={t('to')} type="date" value={range.to} onChange={(to) => setRange((r) => ({ ...r, to }))} required />
        <button type="submit" className="primary">{t('show')}</button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
      {stats && stats.days.length === 0 && <p>{t('noStats')}</p>}
      {stats && stats.days.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('date')}</th>
                <th scope="col">{t('slots')}</th>
                <th scope="col">{t('seats')}</th>
                <th scope="col">{t('freeSeatsCol')}</th>
                <th scope="col">{t('reservations')}</th>
                <th scope="col">{t('checkedInCol')}</th>
                <th scope="col">{t('noShowsCol')}</th>
              </tr>
            </thead>
            <tbody>
              {stats.days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{formatDay(d.day, lang)}</th>
                  <td>{d.slots}</td>
                  <td>{d.seats}</td>
                  <td>{d.freeSeats}</td>
                  <td>{d.reservations}</td>
                  <td>{d.checkedIn}</td>
                  <td>{d.noShows}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
