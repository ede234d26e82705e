import { useEffect, useState } from 'react';
import type { Wait } from '../api/retry';
import { useI18n } from '../i18n/I18n';
import { StepHeading } from '../ui/StepHeading';

function secondsLeft(until: number): number {
  return Math.max(0, Math.ceil((until - Date.now()) / 1000));
}

/** Shown while a request waits for its next attempt: why, how long, and a way out. */
export function WaitingScreen({ wait, onStop }: { wait: Wait; onStop: () => void }) {
  const { t } = useI18n();
  const [seconds, setSeconds] = useState(() => secondsLeft(wait.until));

  useEffect(() => {
    setSeconds(secondsLeft(wait.until));
    const timer = setInterval(() => setSeconds(secondsLeft(wait.until)), 250);
    return () => clearInterval(timer);
  }, [wait.until]);

  return (
    <section className="waiting">
      <StepHeading>{t('waitTitle')}</StepHeading>
      <p role="status">{t(wait.reason === 'busy' ? 'waitBusy' : 'waitOffline')}</p>
      <p className="countdown" role="timer" aria-atomic="true" data-testid="countdown">
        {t('waitCountdown', { seconds })}
      </p>
      <p className="muted">{t('waitAttempt', { attempt: wait.attempt + 1 })}</p>
      <div className="spinner" aria-hidden="true" />
      <button type="button" className="secondary" onClick={onStop}>{t('waitStop')}</button>
    </section>
  );
}
