import type { Alternative } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { formatDay } from './dates';

/** The nearest free slots the API offered when the chosen one filled up. */
export function Alternatives({ alternatives, onPick }: { alternatives: Alternative[]; onPick: (alternative: Alternative) => void }) {
  const { t, lang } = useI18n();
  if (alternatives.length === 0) return <p>{t('noAlternatives')}</p>;
  return (
    <ul className="alternatives">
      {alternatives.map((a) => (
        <li key={`${a.placeId}-${a.day}-${a.time}`}>
          <button type="button" onClick={() => onPick(a)}>
            {t('alternative', { day: formatDay(a.day, lang), time: a.time, count: a.free })}
          </button>
        </li>
      ))}
    </ul>
  );
}
