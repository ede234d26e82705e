import { useEffect, useState } from 'react';
import { dateLocale } from '../booking/dates';
import { useI18n } from '../i18n/I18n';
import type { Admission } from './WaitingRoom';

/**
 * Shown over the booking steps while a turn from the waiting room lasts: until when, and how long
 * is left. The deadline is announced once when the turn comes; the countdown is not live.
 */
export function AdmissionBanner({ admission }: { admission: Admission }) {
  const { t, lang } = useI18n();
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);

  const left = Math.max(0, admission.deadline - now);
  const until = new Date(admission.deadline).toLocaleTimeString(dateLocale(lang), { hour: '2-digit', minute: '2-digit' });
  return (
    <div className="notice notice-success admission" data-testid="admission">
      <p role="status">{t('roomAdmitted', { time: until })}</p>
      <p className="muted">{t('roomAdmittedLeft', { minutes: Math.floor(left / 60_000), seconds: Math.floor(left / 1000) % 60 })}</p>
    </div>
  );
}
