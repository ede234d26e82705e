import { type ReactNode, useState } from 'react';
import { api } from '../api/slotsApi';
import type { DoseInterval, Move, Reservation } from '../api/types';
import { formatDay } from '../booking/dates';
import { DaySlots } from '../booking/DaySlots';
import { moveDays } from '../booking/pairs';
import { useI18n } from '../i18n/I18n';
import { LoadState } from '../ui/LoadState';
import { StepHeading } from '../ui/StepHeading';
import { useLoad } from '../ui/useLoad';

interface SecondDoseMoveProps {
  /** A two-dose booking (its secondDose present). */
  reservation: Reservation;
  interval: DoseInterval;
  onPick: (target: Move) => void;
  onBack: () => void;
  /** The move's refusal and a full slot's alternatives, as the reservation's page says them. */
  messages: ReactNode;
}

/**
 * A new time for a pair's second dose: the free seats of the booking's place and service on the days
 * of the interval after the first dose (any time of day), the current day shown first.
 */
export function SecondDoseMove({ reservation, interval, onPick, onBack, messages }: SecondDoseMoveProps) {
  const { t, lang } = useI18n();
  const days = moveDays(reservation.day, interval);
  const [chosenDay, setChosenDay] = useState(reservation.secondDose?.day);
  const availability = useLoad(() => api.availability(reservation.placeId, days.from, days.to, reservation.service),
    [reservation.placeId, days.from, days.to, reservation.service]);
  const data = availability.data;
  const current = reservation.secondDose;

  return (
    <section key="move-second">
      <StepHeading>{t('moveSecondTitle')}</StepHeading>
      <p className="chosen">
        {reservation.placeName}
        {current && <>, {t('secondDose')}: {t('doseAt', { day: formatDay(current.day, lang, true), time: current.time })}</>}{' '}
        <button type="button" className="link" onClick={onBack}>{t('back')}</button>
      </p>
      <p>
        {t('moveSecondLead', { min: interval.minDays, max: interval.maxDays, from: formatDay(days.from, lang), to: formatDay(days.to, lang) })}
      </p>
      {messages}
      <LoadState loaded={availability} />
      {data && data.days.length === 0 && <p>{t('noSlotsInterval')}</p>}
      <DaySlots days={data?.days ?? []} chosenDay={chosenDay} onChooseDay={setChosenDay}
        onPick={(day, slot) => onPick({ placeId: reservation.placeId, day, time: slot.time, dose: 2 })} />
    </section>
  );
}
