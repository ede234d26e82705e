import { useState } from 'react';
import { api } from '../api/slotsApi';
import type { Slot } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { LoadState } from '../ui/LoadState';
import { useLoad } from '../ui/useLoad';
import { type DayRange, defaultRange } from '../waitlist/waitlist';
import { addDays, formatDay } from './dates';

export interface PickedSlot {
  day: string;
  time: string;
  minutes: number;
}

// The API books 30 days ahead: five weeks from today cover them.
const lastWeek = 4;

interface WeekViewProps {
  placeId: number;
  onPick: (slot: PickedSlot) => void;
  /** No seat is free on the shown days: onto the waiting list for them (from today, the place's). */
  onJoinWaitingList?: (range: DayRange, today: string) => void;
}

/** A week of free seats at one place: days to choose from, then that day's times; the waiting list when none is free. */
export function WeekView({ placeId, onPick, onJoinWaitingList }: WeekViewProps) {
  const { t, lang } = useI18n();
  const [week, setWeek] = useState(0);
  const [firstDay, setFirstDay] = useState<string>();
  const [chosenDay, setChosenDay] = useState<string>();
  const from = week === 0 || !firstDay ? undefined : addDays(firstDay, 7 * week);
  const availability = useLoad(async () => {
    const result = await api.availability(placeId, from, from && addDays(from, 6));
    if (week === 0) setFirstDay(result.from);
    return result;
  }, [placeId, from]);

  const data = availability.data;
  const days = data?.days ?? [];
  const freeOf = (slots: Slot[]) => slots.reduce((sum, s) => sum + s.free, 0);
  const shown = days.find((d) => d.day === chosenDay) ?? days.find((d) => freeOf(d.slots) > 0) ?? days[0];
  const changeWeek = (next: number) => {
    setWeek(next);
    setChosenDay(undefined);
  };

  return (
    <div className="week">
      <div className="week-nav">
        <button type="button" onClick={() => changeWeek(week - 1)} disabled={week === 0 || availability.loading}>‹ {t('prevWeek')}</button>
        {data && <h2>{t('weekOf', { from: formatDay(data.from, lang), to: formatDay(data.to, lang) })}</h2>}
        <button type="button" onClick={() => changeWeek(week + 1)} disabled={week === lastWeek || availability.loading || !firstDay}>{t('nextWeek')} ›</button>
      </div>
      <LoadState loaded={availability} />
      {data && days.length === 0 && <p>{t('noSlotsWeek')}</p>}
      {data && onJoinWaitingList && days.length > 0 && days.every((d) => freeOf(d.slots) === 0) && (
        <div className="notice notice-info waitlist-offer">
          <p>{t('wlNoSeats')}</p>
          <p>
            <button type="button" className="primary" onClick={() => {
              const today = firstDay ?? data.from;
              onJoinWaitingList(defaultRange({ from: data.from, to: data.to }, today), today);
            }}>{t('wlJoin')}</button>
          </p>
        </div>
      )}
      {days.length > 0 && (
        <ul className="days" aria-label={t('chooseDay')}>
          {days.map((d) => (
            <li key={d.day}>
              <button type="button" className="day" data-day={d.day} aria-pressed={d.day === shown?.day} onClick={() => setChosenDay(d.day)}>
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
                <button type="button" className="slot" disabled={s.free === 0} data-time={s.time}
                  onClick={() => onPick({ day: shown.day, time: s.time, minutes: s.minutes })}>
                  <strong>{s.time}</strong>
                  <span>{s.free > 0 ? t('freeSeats', { count: s.free }) : t('full')}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
