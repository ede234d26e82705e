import type { DoseInterval } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { formatDay } from './dates';
import { secondDoseDays } from './pairs';

interface SecondDoseFieldProps {
  interval: DoseInterval;
  /** The first dose's day and time: the interval counts from that day, and the second dose keeps that time. */
  firstDay: string;
  time: string;
  value: string;
  onChange: (day: string) => void;
  onBlur: () => void;
  error?: string;
}

/**
 * Before a two-dose service is booked: that the second appointment comes with it, when and where, and
 * (optional) a day of the interval chosen for it, at the first dose's time.
 */
export function SecondDoseField({ interval, firstDay, time, value, onChange, onBlur, error }: SecondDoseFieldProps) {
  const { t, lang } = useI18n();
  const days = secondDoseDays(firstDay, interval);
  return (
    <div className="second-dose">
      <div className="notice notice-info">
        <p data-testid="pair-lead">
          {t('pairLead', { min: interval.minDays, max: interval.maxDays, from: formatDay(days.from, lang), to: formatDay(days.to, lang) })}
        </p>
      </div>
      <Field label={t('pairDay')} name="secondDay" type="date" min={days.from} max={days.to} value={value} onChange={onChange}
        onBlur={onBlur} hint={t('pairDayHint', { time })} error={error} />
    </div>
  );
}
