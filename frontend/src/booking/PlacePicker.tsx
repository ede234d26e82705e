import { type FormEvent, useState } from 'react';
import { api } from '../api/slotsApi';
import type { Place } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { LoadState } from '../ui/LoadState';
import { StepHeading } from '../ui/StepHeading';
import { useLoad } from '../ui/useLoad';

/** Step 1: region and name search, then one place. */
export function PlacePicker({ onPick }: { onPick: (place: Place) => void }) {
  const { t } = useI18n();
  const [region, setRegion] = useState('');
  const [typed, setTyped] = useState('');
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const regions = useLoad(() => api.regions(), []);
  const places = useLoad(() => api.places(region, name, page), [region, name, page]);

  const search = (e: FormEvent) => {
    e.preventDefault();
    setName(typed.trim());
    setPage(1);
  };
  const pages = places.data ? Math.max(1, Math.ceil(places.data.total / places.data.pageSize)) : 1;

  return (
    <section>
      <StepHeading>{t('stepPlace')}</StepHeading>
      <form className="search" onSubmit={search} role="search">
        <div className="field">
          <label htmlFor="region">{t('region')}</label>
          <select id="region" value={region} onChange={(e) => { setRegion(e.target.value); setPage(1); }}>
            <option value="">{t('allRegions')}</option>
            {regions.data?.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="place-name">{t('searchName')}</label>
          <input id="place-name" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={100} />
        </div>
        <button type="submit">{t('search')}</button>
      </form>
      <LoadState loaded={places} />
      {places.data && (
        <>
          <p role="status">{t('placesFound', { count: places.data.total })}</p>
          {places.data.items.length === 0 && <p>{t('noPlaces')}</p>}
          <ul className="places">
            {places.data.items.map((place) => (
              <li key={place.id}>
                <button type="button" className="place" onClick={() => onPick(place)}>
                  <strong>{place.name}</strong>
                  <span>{place.address}</span>
                  <span className="muted">{place.region}</span>
                </button>
              </li>
            ))}
          </ul>
          {pages > 1 && (
            <nav className="pager" aria-label={t('morePlaces')}>
              <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>‹ {t('back')}</button>
              <span>{page} / {pages}</span>
              <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>{t('morePlaces')} ›</button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
