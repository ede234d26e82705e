import { useEffect, useId, useRef, useState } from 'react';
import type { Wait } from '../api/retry';
import { api } from '../api/slotsApi';
import type { PersonalData, Proof } from '../api/types';
import { formatDay } from '../booking/dates';
import { WaitingScreen } from '../booking/WaitingScreen';
import { useI18n } from '../i18n/I18n';
import type { MessageKey } from '../i18n/messages';
import { Notice } from '../ui/Notice';
import { problemMessage } from '../ui/problemMessage';
import { StepHeading } from '../ui/StepHeading';

interface PersonalDataViewProps {
  code: string;
  proof: Proof;
  onBack: () => void;
  onErased: (message: string) => void;
}

const stateKeys: Record<string, MessageKey> = {
  booked: 'dataStateBooked',
  cancelled: 'dataStateCancelled',
  queued: 'dataStateQueued',
  sent: 'dataStateSent',
  waiting: 'dataStateWaiting',
  offered: 'dataStateOffered',
  left: 'dataStateLeft',
  expired: 'dataStateExpired',
};

/**
 * What is kept about the person (read with the same code and proof as the booking), and its
 * erasure: a booking still ahead is cancelled first, which the confirmation says before anything happens.
 */
export function PersonalDataView({ code, proof, onBack, onErased }: PersonalDataViewProps) {
  const { t, lang } = useI18n();
  const [data, setData] = useState<PersonalData | null>(null);
  const [failed, setFailed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState<Wait | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const question = useId();

  useEffect(() => {
    let live = true;
    api.personalData(code, proof).then((d) => live && setData(d), () => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [code, proof]);

  const erase = async () => {
    controller.current = new AbortController();
    setBusy(true);
    setNotice(null);
    try {
      const outcome = await api.erasePersonalData(code, proof, { signal: controller.current.signal, onWait: setWait });
      if (outcome.kind === 'done') return onErased(t('erased', { code }));
      setConfirming(false);
      setNotice(outcome.kind === 'problem' ? problemMessage(outcome.problem, t) : t('unknownAfterLoss'));
    } finally {
      setBusy(false);
      setWait(null);
    }
  };

  if (wait) return <WaitingScreen wait={wait} onStop={() => controller.current?.abort()} />;

  const state = (value: string) => (stateKeys[value] ? t(stateKeys[value]) : value);
  const ahead = data?.bookings.filter((b) => b.state === 'booked') ?? [];

  return (
    <section key="data">
      <StepHeading>{t('yourData')}</StepHeading>
      <p>
        {t('yourDataLead')}{' '}
        <button type="button" className="link" onClick={onBack}>{t('back')}</button>
      </p>
      {notice && <Notice kind="error">{notice}</Notice>}
      {failed && <Notice kind="error">{t('yourDataFailed')}</Notice>}
      {!data && !failed && <p>{t('yourDataLoading')}</p>}
      {data && (
        <>
          <h2>{t('dataBookings')}</h2>
          {data.bookings.length === 0 ? <p>{t('dataNone')}</p> : (
            <ul className="stored" data-testid="data-bookings">
              {data.bookings.map((b) => (
                <li key={`${b.code}-${b.dose ?? 0}`}>
                  <strong>{b.code}</strong>{b.dose != null && <> ({t(b.dose === 1 ? 'firstDose' : 'secondDose')})</>}: {b.placeName}, {formatDay(b.day, lang)} {b.time}
                  <br />{t('dataName')}: {b.name}; {t('dataPhone')}: {b.phone}; {t('dataState')}: {state(b.state)}
                </li>
              ))}
            </ul>
          )}
          <h2>{t('dataWaitingList')}</h2>
          {data.waitingList.length === 0 ? <p>{t('dataNone')}</p> : (
            <ul className="stored">
              {data.waitingList.map((e, i) => (
                <li key={i}>
                  {e.placeName}, {t('dataDays', { from: formatDay(e.from, lang), to: formatDay(e.to, lang) })}
                  <br />{t('dataName')}: {e.name}; {t('dataPhone')}: {e.phone}; {t('dataState')}: {state(e.state)}
                </li>
              ))}
            </ul>
          )}
          <h2>{t('dataSms')}</h2>
          {data.sms.length === 0 ? <p>{t('dataNone')}</p> : (
            <ul className="stored" data-testid="data-sms">
              {data.sms.map((s, i) => (
                <li key={i}>
                  {s.phone}: „{s.text}“ ({state(s.state)})
                </li>
              ))}
            </ul>
          )}
          <h2>{t('dataReminders')}</h2>
          {data.reminders.length === 0 ? <p>{t('dataNone')}</p> : (
            <ul className="stored">
              {data.reminders.map((r, i) => (
                <li key={i}>{t('dataReminderFor', { code: r.code, date: formatDay(r.day, lang) })}</li>
              ))}
            </ul>
          )}
          {confirming ? (
            <div className="confirm-box" role="group" aria-labelledby={question}>
              <p id={question}>
                {ahead.map((b) => t('eraseConfirmAhead', { code: b.code, date: formatDay(b.day, lang, true), time: b.time })).join(' ')}
                {ahead.length > 0 && ' '}
                {t('eraseConfirm')}
              </p>
              <div className="actions">
                <button type="button" className="danger" disabled={busy} onClick={() => void erase()}>{t('eraseYes')}</button>
                <button type="button" className="secondary" autoFocus onClick={() => setConfirming(false)}>{t('cancelNo')}</button>
              </div>
            </div>
          ) : (
            <div className="actions">
              <button type="button" className="danger" disabled={busy} onClick={() => setConfirming(true)}>{t('eraseData')}</button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
