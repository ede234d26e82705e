import { type FormEvent, useState } from 'react';
import type { AdminApi } from '../api/adminApi';
import type { Service, Stats } from '../api/types';
import { addDays, formatDay } from '../booking/dates';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { adminError } from './adminError';
import { useServiceI18n } from './serviceTexts';

/** Counts per day, of every service or of the one chosen. */
export function StatsTable({ admin, catalogue }: { admin: AdminApi; catalogue: Service[] }) {
  const { t, lang } = useServiceI18n();
  const today = new Date().toISOString().slice(0, 10);
  const [range, setRange] = useState({ from: today, to: addDays(today, 13), service: '' });
  const [stats, setStats] = useState<Stats | null>(null);
  const [error, setError] = useState<string | null>(null);

  const serviceLabel = (code: string) => {
    const service = catalogue.find((s) => s.code === code);
    return service ? `${lang === 'sk' ? service.nameSk : service.nameEn} (${code})` : code;
  };

  const show = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      setStats(await admin.stats(range.from, range.to, range.service || undefined));
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
        <div className="field">
          <label htmlFor="stats-service">{t('statsService')}</label>
          <select id="stats-service" value={range.service} onChange={(e) => setRange((r) => ({ ...r, service: e.target.value }))}>
            <option value="">{t('statsAllServices')}</option>
            {catalogue.map((s) => <option key={s.code} value={s.code}>{lang === 'sk' ? s.nameSk : s.nameEn} ({s.code})</option>)}
          </select>
        </div>
        <button type="submit" className="primary">{t('show')}</button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
      {stats && <p data-testid="stats-service">{stats.service ? t('statsOfService', { name: serviceLabel(stats.service) }) : t('statsAllServices')}</p>}
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
