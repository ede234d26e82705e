import type { Availability, Slot } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { formatDay } from './dates';

export type AvailableDay = Availability['days'][number];

export const freeOf = (slots: Slot[]) => slots.reduce((sum, s) => sum + s.free, 0);

interface DaySlotsProps {
  days: AvailableDay[];
  /** The day the person chose; until then the first with a free seat (or the first). */
  chosenDay?: string;
  onChooseDay: (day: string) => void;
  onPick: (day: string, slot: Slot) => void;
}

/** Days to choose from, with their free seats, then the chosen day's times: a week's, or a second dose's interval. */
export function DaySlots({ days, chosenDay, onChooseDay, onPick }: DaySlotsProps) {
  const { t, lang } = useI18n();
  const shown = days.find((d) => d.day === chosenDay) ?? days.find((d) => freeOf(d.slots) > 0) ?? days[0];
  return (
    <>
      {days.length > 0 && (
        <ul className="days" aria-label={t('chooseDay')}>
          {days.map((d) => (
            <li key={d.day}>
              <button type="button" className="day" data-day={d.day} aria-pressed={d.day === shown?.day} onClick={() => onChooseDay(d.day)}>
                <strong>{formatDay(d.day, lang)}</strong>
                <span>{t('dayFree', { count: freeOf(d.slots) })}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {shown && (
        <section aria-labelledby="slots-heading">
          <h3 id="slots-heading">{t('slotsOfDay', { day: formatDay(shown.day, lang, true) })}</h3>
          {freeOf(shown.slots) === 0 && <p>{t('noSlotsDay')}</p>}
          <ul className="slots">
            {shown.slots.map((s) => (
              <li key={s.time}>
                <button type="button" className="slot" disabled={s.free === 0} data-time={s.time} onClick={() => onPick(shown.day, s)}>
                  <strong>{s.time}</strong>
                  <span>{s.free > 0 ? t('freeSeats', { count: s.free }) : t('full')}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
