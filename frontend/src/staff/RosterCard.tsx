import { type FormEvent, useEffect, useState } from 'react';
import type { RosterQuery, StaffApi } from '../api/staffApi';
import type { RosterRow, RosterState } from '../api/types';
import { formatDay } from '../booking/dates';
import { useStaffI18n } from './staffTexts';
import type { StaffKey } from './staffTexts';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { useLoad } from '../ui/useLoad';
import { clockTime, isSignedOut, staffError } from './staffMessages';

// The door sees others check people in too: the roster is read again every 10 s and after each check-in.
const refreshMs = 10_000;
const pageSize = 25;

// A site's cancel has a state (and filter) of its own; the day's counts take it as cancelled.
const states: { state: RosterState; label: StaffKey; count?: StaffKey }[] = [
  { state: 'booked', label: 'stateBooked', count: 'countBooked' },
  { state: 'checked-in', label: 'stateCheckedIn', count: 'countCheckedIn' },
  { state: 'no-show', label: 'stateNoShow', count: 'countNoShow' },
  { state: 'cancelled', label: 'stateCancelled', count: 'countCancelled' },
  { state: 'cancelled-by-site', label: 'stateCancelledBySite' },
];
const counted = states.flatMap((s) => (s.count ? [{ state: s.state, count: s.count }] : []));
const countOf = { booked: 'booked', 'checked-in': 'checkedIn', 'no-show': 'noShow', cancelled: 'cancelled', 'cancelled-by-site': 'cancelled' } as const;

interface RosterCardProps {
  api: StaffApi;
  placeId: number;
  /** Changes after each check-in here, so the roster is read again at once. */
  refresh: number;
  manager: boolean;
  onSignedOut: () => void;
}

type Filters = Omit<RosterQuery, 'page' | 'pageSize'>;
const noFilters: Filters = { day: '', from: '', to: '', state: undefined, code: '' };

/** The place's day: counts by state, the bookings filtered and a page at a time, CSV for managers. */
export function RosterCard({ api, placeId, refresh, manager, onSignedOut }: RosterCardProps) {
  const { t, lang } = useStaffI18n();
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [page, setPage] = useState(1);
  const [tick, setTick] = useState(0);
  const [exportError, setExportError] = useState<string | null>(null);
  const roster = useLoad(() => api.roster(placeId, { ...filters, page, pageSize }), [api, placeId, filters, page, refresh, tick]);
  const [updated, setUpdated] = useState<string | null>(null);

  useEffect(() => {
    const timer = window.setInterval(() => setTick((n) => n + 1), refreshMs);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    if (roster.data) setUpdated(clockTime(new Date().toISOString(), lang));
  }, [roster.data]);
  useEffect(() => {
    if (roster.error && isSignedOut(roster.error)) onSignedOut();
  }, [roster.error]);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setPage(1);
    setFilters(draft);
  };
  const clear = () => {
    setDraft(noFilters);
    setFilters(noFilters);
    setPage(1);
  };

  const exportCsv = async () => {
    setExportError(null);
    try {
      const blob = await api.rosterCsv(placeId, filters);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `roster-${placeId}-${roster.data?.day ?? 'today'}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      setExportError(staffError(error, t));
    }
  };

  const data = roster.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const set = (field: keyof Filters) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  return (
    <section className="card" aria-labelledby="roster">
      <h2 id="roster">{data ? t('rosterOfDay', { day: formatDay(data.day, lang, true) }) : t('rosterTitle')}</h2>
      {data && (
        <dl className="room-figures roster-counts">
          {counted.map((s) => (
            <div key={s.state} data-testid={`count-${s.state}`}>
              <dt>{t(s.count)}</dt>
              <dd>{data.counts[countOf[s.state]]}</dd>
            </div>
          ))}
        </dl>
      )}
      <form className="row roster-filters" onSubmit={apply} noValidate>
        <Field label={t('rosterDay')} type="date" value={draft.day ?? ''} onChange={set('day')} />
        <Field label={t('timeFrom')} type="time" value={draft.from ?? ''} onChange={set('from')} />
        <Field label={t('timeTo')} type="time" value={draft.to ?? ''} onChange={set('to')} />
        <div className="field">
          <label htmlFor="roster-state">{t('filterState')}</label>
          <select id="roster-state" value={draft.state ?? ''} onChange={(e) => setDraft((d) => ({ ...d, state: (e.target.value || undefined) as RosterState | undefined }))}>
            <option value="">{t('allStates')}</option>
            {states.map((s) => <option key={s.state} value={s.state}>{t(s.label)}</option>)}
          </select>
        </div>
        <Field label={t('code')} name="roster-code" autoComplete="off" spellCheck={false} value={draft.code ?? ''} onChange={set('code')} />
        <button type="submit" className="primary">{t('filter')}</button>
        <button type="button" className="secondary" onClick={clear}>{t('clearFilters')}</button>
      </form>
      {roster.error !== undefined && !isSignedOut(roster.error) && (
        <Notice kind="error">
          {staffError(roster.error, t)} <button type="button" className="link" onClick={roster.reload}>{t('retry')}</button>
        </Notice>
      )}
      {!data && roster.loading && <p role="status" className="loading">{t('loading')}</p>}
      {data && data.rows.length === 0 && <p>{t('noRows')}</p>}
      {data && data.rows.length > 0 && (
        <div className="table-scroll">
          <table className="roster">
            <thead>
              <tr>
                <th scope="col">{t('time')}</th>
                <th scope="col">{t('seat')}</th>
                <th scope="col">{t('code')}</th>
                <th scope="col">{t('personName')}</th>
                <th scope="col">{t('phone')}</th>
                <th scope="col">{t('language')}</th>
                <th scope="col">{t('filterState')}</th>
                <th scope="col">{t('stateWhen')}</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((row) => <Row key={`${row.code}-${row.seat}`} row={row} />)}
            </tbody>
          </table>
        </div>
      )}
      {data && pages > 1 && (
        <nav className="pager" aria-label={t('rosterPaging')}>
          <button type="button" className="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>{t('prevPage')}</button>
          <span>{t('pageOf', { page: data.page, pages })}</span>
          <button type="button" className="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>{t('nextPage')}</button>
        </nav>
      )}
      <div className="actions">
        {manager && <button type="button" className="secondary" onClick={() => void exportCsv()}>{t('exportCsv')}</button>}
        {updated && <p className="hint">{t('updatedAt', { time: updated })}</p>}
      </div>
      {exportError && <Notice kind="error">{exportError}</Notice>}
    </section>
  );
}

function Row({ row }: { row: RosterRow }) {
  const { t, lang } = useStaffI18n();
  const label = states.find((s) => s.state === row.state)!.label;
  return (
    <tr data-code={row.code} data-state={row.state}>
      <th scope="row">{row.time}</th>
      <td>{row.seat}</td>
      <td className="mono">{row.code}</td>
      <td>{row.name}</td>
      <td className="mono">{row.phone}</td>
      <td>{row.language}</td>
      <td><span className={`state state-${row.state}`}>{t(label)}</span></td>
      <td>{row.at ? `${clockTime(row.at, lang)}${row.by ? `, ${row.by}` : ''}` : ''}</td>
    </tr>
  );
}
