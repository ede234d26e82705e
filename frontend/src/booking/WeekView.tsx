import { useEffect, useRef, useState } from 'react';
import { api } from '../api/slotsApi';
import { useI18n } from '../i18n/I18n';
import { LoadState } from '../ui/LoadState';
import { useLoad } from '../ui/useLoad';
import { type DayRange, defaultRange } from '../waitlist/waitlist';
import { addDays, formatDay } from './dates';
import { DaySlots, freeOf } from './DaySlots';

export interface PickedSlot {
  day: string;
  time: string;
  minutes: number;
  /** The service's code, where the place offers several and the person chose one. */
  service?: string;
}

/**
 * A slot a link names (a vaccine finder's deep link), with today on the place's clock to find its week;
 * pick: choose it at once (false when the person comes back from it to choose another time).
 */
export interface LinkedSlot {
  today: string;
  day: string;
  time: string;
  pick: boolean;
}

// The API books 30 days ahead: five weeks from today cover them.
const lastWeek = 4;

interface WeekViewProps {
  placeId: number;
  /** The service whose seats are shown, where the place offers several; the place's only one otherwise. */
  service?: string;
  onPick: (slot: PickedSlot) => void;
  /** No seat is free on the shown days: onto the waiting list for them (from today, the place's). */
  onJoinWaitingList?: (range: DayRange, today: string) => void;
  /** Open at this slot's week and day, and pick it while it has a free seat. */
  linked?: LinkedSlot;
}

/** Which week from today (0 to lastWeek) holds the day. */
function weekOf({ today, day }: LinkedSlot): number {
  const days = (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000;
  return Math.min(lastWeek, Math.max(0, Math.floor(days / 7)));
}

/** A week of free seats at one place: days to choose from, then that day's times; the waiting list when none is free. */
export function WeekView({ placeId, service, onPick, onJoinWaitingList, linked }: WeekViewProps) {
  const { t, lang } = useI18n();
  const [week, setWeek] = useState(() => (linked ? weekOf(linked) : 0));
  const [firstDay, setFirstDay] = useState<string | undefined>(linked?.today);
  const [chosenDay, setChosenDay] = useState<string | undefined>(linked?.day);
  // The linked slot is picked once, from the first answer; coming back to the week shows it as usual.
  const linkPending = useRef(linked?.pick === true);
  const from = week === 0 || !firstDay ? undefined : addDays(firstDay, 7 * week);
  const availability = useLoad(async () => {
    const result = await api.availability(placeId, from, from && addDays(from, 6), service);
    if (week === 0) setFirstDay(result.from);
    return result;
  }, [placeId, from, service]);

  const data = availability.data;
  const days = data?.days ?? [];
  useEffect(() => {
    if (!data || !linked || !linkPending.current) return;
    linkPending.current = false;
    // Taken meanwhile or gone: the person sees the day and chooses another time.
    const slot = data.days.find((d) => d.day === linked.day)?.slots.find((s) => s.time === linked.time);
    if (slot && slot.free > 0) onPick({ day: linked.day, time: slot.time, minutes: slot.minutes, service });
  }, [data]);
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
      <DaySlots days={days} chosenDay={chosenDay} onChooseDay={setChosenDay}
        onPick={(day, s) => onPick({ day, time: s.time, minutes: s.minutes, service })} />
    </div>
  );
}
