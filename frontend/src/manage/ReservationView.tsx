import { useEffect, useRef, useState } from 'react';
import type { Wait } from '../api/retry';
import { api, type WriteOutcome } from '../api/slotsApi';
import type { Alternative, Move, Place, Problem, Proof, Reservation } from '../api/types';
import { Alternatives } from '../booking/Alternatives';
import { AppointmentRows } from '../booking/AppointmentRows';
import { needsServiceChoice, serviceName } from '../booking/services';
import { useDoseInterval } from '../booking/useDoseInterval';
import { WaitingScreen } from '../booking/WaitingScreen';
import { WeekView } from '../booking/WeekView';
import { useI18n } from '../i18n/I18n';
import { Notice } from '../ui/Notice';
import { problemMessage } from '../ui/problemMessage';
import { QrCode } from '../ui/QrCode';
import { StepHeading } from '../ui/StepHeading';
import { PersonalDataView } from './PersonalDataView';
import { SecondDoseMove } from './SecondDoseMove';

interface ReservationViewProps {
  reservation: Reservation;
  proof: Proof;
  onChanged: (reservation: Reservation) => void;
  onGone: (message: string) => void;
}

type Mode = 'view' | 'confirm-cancel' | 'reschedule' | 'move-second' | 'data';

/**
 * One found reservation: its details, cancelling, and moving it to another time. A two-dose booking
 * shows both doses and cancels both; its first dose stays, its second moves within the interval.
 */
export function ReservationView({ reservation, proof, onChanged, onGone }: ReservationViewProps) {
  const { t, lang } = useI18n();
  const [mode, setMode] = useState<Mode>('view');
  const [wait, setWait] = useState<Wait | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [alternatives, setAlternatives] = useState<Alternative[] | null>(null);
  const controller = useRef<AbortController | null>(null);
  // The place, for the service's name where it offers several; the details show without it meanwhile.
  const [place, setPlace] = useState<Place | null>(null);
  useEffect(() => {
    let current = true;
    api.place(reservation.placeId).then((p) => current && setPlace(p), () => undefined);
    return () => {
      current = false;
    };
  }, [reservation.placeId]);
  const pair = reservation.secondDose != null;
  // The interval the second dose may move in, from the catalogue; its move is offered once it is known.
  const interval = useDoseInterval(pair ? reservation.service : undefined);

  async function run<T>(write: (hooks: { signal: AbortSignal; onWait: (w: Wait) => void }) => Promise<WriteOutcome<T>>) {
    controller.current = new AbortController();
    setBusy(true);
    setNotice(null);
    setAlternatives(null);
    try {
      return await write({ signal: controller.current.signal, onWait: setWait });
    } finally {
      setBusy(false);
      setWait(null);
    }
  }

  const failed = (outcome: { kind: 'gave-up' | 'aborted' } | { kind: 'problem'; problem: Problem }) => {
    if (outcome.kind === 'problem' && outcome.problem.code === 'slot-full') {
      setAlternatives(outcome.problem.alternatives ?? []);
      setNotice({ kind: 'error', text: t('slotFull') });
    } else {
      setNotice({ kind: 'error', text: outcome.kind === 'problem' ? problemMessage(outcome.problem, t) : t('unknownAfterLoss') });
    }
  };

  const cancel = async () => {
    const outcome = await run((hooks) => api.cancel(reservation.code, proof, hooks));
    if (outcome.kind === 'done') return onGone(t(pair ? 'pairCancelled' : 'cancelled', { code: reservation.code }));
    setMode('view');
    failed(outcome);
  };

  const moveTo = async (target: Move) => {
    const outcome = await run((hooks) => api.reschedule(reservation.code, proof, target, hooks));
    if (outcome.kind !== 'done') return failed(outcome);
    setMode('view');
    setNotice({ kind: 'success', text: t(target.dose === 2 ? 'secondDoseMoved' : 'rescheduled') });
    onChanged(outcome.value);
  };
  // A full slot's alternatives move what was being moved.
  const moveToAlternative = (a: Alternative) =>
    void moveTo({ placeId: a.placeId, day: a.day, time: a.time, ...(mode === 'move-second' ? { dose: 2 as const } : {}) });

  if (wait) return <WaitingScreen wait={wait} onStop={() => controller.current?.abort()} />;

  const messages = (
    <>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {alternatives && <Alternatives alternatives={alternatives} onPick={moveToAlternative} />}
    </>
  );

  if (mode === 'data') {
    return <PersonalDataView code={reservation.code} proof={proof} onBack={() => setMode('view')} onErased={onGone} />;
  }

  if (mode === 'move-second' && interval) {
    return <SecondDoseMove reservation={reservation} interval={interval} messages={messages} onBack={() => setMode('view')}
      onPick={(target) => void moveTo(target)} />;
  }

  if (mode === 'reschedule') {
    return (
      <section key="reschedule">
        <StepHeading>{t('rescheduleTitle')}</StepHeading>
        <p className="chosen">
          {reservation.placeName}{' '}
          <button type="button" className="link" onClick={() => setMode('view')}>{t('back')}</button>
        </p>
        {messages}
        {/* A move stays within the service booked: its week shows that service's seats. */}
        <WeekView placeId={reservation.placeId} service={reservation.service}
          onPick={(slot) => void moveTo({ placeId: reservation.placeId, day: slot.day, time: slot.time })} />
      </section>
    );
  }

  return (
    <section key="view">
      <StepHeading>{t('yourReservation')}</StepHeading>
      {messages}
      {pair && <p data-testid="pair-note">{t('pairNote')}</p>}
      <dl className="details">
        <dt>{t('code')}</dt>
        <dd className="code">{reservation.code}</dd>
        <dt>{t('place')}</dt>
        <dd>{reservation.placeName}</dd>
        <dt>{t('address')}</dt>
        <dd>{reservation.address}</dd>
        {place && needsServiceChoice(place) && (
          <>
            <dt>{t('service')}</dt>
            <dd data-testid="reservation-service">{serviceName(place, reservation.service, lang)}</dd>
          </>
        )}
        <AppointmentRows reservation={reservation} />
      </dl>
      <QrCode text={reservation.code} label={t('qrLabel', { code: reservation.code })} />
      <p className="hint">{t('qrHint')}</p>
      {mode === 'confirm-cancel' ? (
        <div className="confirm-box" role="group" aria-labelledby="cancel-question">
          <p id="cancel-question">{t(pair ? 'cancelPairConfirm' : 'cancelConfirm')}</p>
          <div className="actions">
            <button type="button" className="danger" disabled={busy} onClick={() => void cancel()}>{t('cancelYes')}</button>
            <button type="button" className="secondary" autoFocus onClick={() => setMode('view')}>{t('cancelNo')}</button>
          </div>
        </div>
      ) : (
        <div className="actions">
          {/* A pair's first dose cannot move (the API answers pair-first-dose-fixed): only its second is offered. */}
          {!pair && <button type="button" className="primary" disabled={busy} onClick={() => setMode('reschedule')}>{t('reschedule')}</button>}
          {pair && interval && (
            <button type="button" className="primary" disabled={busy} onClick={() => setMode('move-second')}>{t('moveSecond')}</button>
          )}
          <button type="button" className="danger" disabled={busy} onClick={() => setMode('confirm-cancel')}>
            {t(pair ? 'cancelPair' : 'cancelReservation')}
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => setMode('data')}>{t('yourData')}</button>
        </div>
      )}
    </section>
  );
}
