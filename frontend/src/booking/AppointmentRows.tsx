import type { Reservation } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { formatDay } from './dates';

/**
 * A booking's day and time in a details list: one appointment as its date and time; a two-dose
 * booking as both doses, each its day and time, so neither is missed.
 */
export function AppointmentRows({ reservation }: { reservation: Reservation }) {
  const { t, lang } = useI18n();
  const second = reservation.secondDose;
  if (!second) {
    return (
      <>
        <dt>{t('date')}</dt>
        <dd data-testid="reservation-day">{formatDay(reservation.day, lang, true)}</dd>
        <dt>{t('time')}</dt>
        <dd data-testid="reservation-time">{reservation.time}</dd>
      </>
    );
  }
  return (
    <>
      <dt>{t('firstDose')}</dt>
      <dd data-testid="first-dose">{t('doseAt', { day: formatDay(reservation.day, lang, true), time: reservation.time })}</dd>
      <dt>{t('secondDose')}</dt>
      <dd data-testid="second-dose">{t('doseAt', { day: formatDay(second.day, lang, true), time: second.time })}</dd>
    </>
  );
}
