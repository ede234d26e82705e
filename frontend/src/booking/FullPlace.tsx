import { useEffect } from 'react';
import { api } from '../api/slotsApi';
import type { Place } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { LoadState } from '../ui/LoadState';
import { StepHeading } from '../ui/StepHeading';
import { useLoad } from '../ui/useLoad';

interface FullPlaceProps {
  /** The place as the search list has it: without its services. */
  listed: Place;
  onLoaded: (place: Place) => void;
  onChangePlace: () => void;
}

/**
 * A place picked from the search list, while the page reads it whole (with its services): only then can
 * it tell whether to ask which service, or for an invitation code. A failed read says so, with a retry.
 */
export function FullPlace({ listed, onLoaded, onChangePlace }: FullPlaceProps) {
  const { t } = useI18n();
  const place = useLoad(() => api.place(listed.id), [listed.id]);

  useEffect(() => {
    if (place.data) onLoaded(place.data);
  }, [place.data]);

  return (
    <section>
      <StepHeading>{listed.name}</StepHeading>
      <p className="chosen">
        {listed.address}{' '}
        <button type="button" className="link" onClick={onChangePlace}>{t('changePlace')}</button>
      </p>
      {/* Read: the flow still asks whether the place is in an opening before its next step. */}
      {place.data ? <p role="status" className="loading">{t('loading')}</p> : <LoadState loaded={place} />}
    </section>
  );
}
