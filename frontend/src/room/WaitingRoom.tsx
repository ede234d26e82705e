import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/http';
import { api, type RoomAnswer } from '../api/slotsApi';
import type { Opening, Place, RoomStatus } from '../api/types';
import { dateLocale } from '../booking/dates';
import { validateNationalId } from '../booking/validation';
import { type Translate, useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { problemMessage } from '../ui/problemMessage';
import { StepHeading } from '../ui/StepHeading';
import { aheadMilestone, pollRoom } from './roomPoll';
import { forgetToken, saveToken, savedToken } from './roomTokens';

/** A turn that came: the token to book with, the places it covers, and until when (this device's clock). */
export interface Admission {
  openingId: number;
  token: string;
  placeIds: number[];
  deadline: number;
}

interface WaitingRoomProps {
  place: Place;
  opening: Opening;
  nationalId: string;
  onNationalIdChange: (value: string) => void;
  onAdmitted: (admission: Admission) => void;
  onClosed: () => void;
  onLeave: () => void;
}

function clockTime(ms: number, lang: string): string {
  return new Date(ms).toLocaleTimeString(dateLocale(lang), { hour: '2-digit', minute: '2-digit' });
}

function estimate(seconds: number | null, t: Translate): string | null {
  if (seconds === null) return null;
  return seconds < 60 ? t('roomUnderMinute') : t('roomMinutes', { minutes: Math.ceil(seconds / 60) });
}

/** The sentence the live region holds: it changes with the state and at milestones of the people ahead, not every poll. */
function announcement(status: RoomStatus, t: Translate, lang: string): string {
  switch (status.state) {
    case 'waiting':
      return status.ahead === null
        ? `${t('roomInLine')} ${t('roomBeforeOpening', { time: clockTime(Date.parse(status.opensAt), lang) })}`
        : `${t('roomInLine')} ${t('roomAnnounceAhead', { count: aheadMilestone(status.ahead) })}`;
    case 'no-seats-left':
      return `${t('roomNoSeats')} ${t('roomNoSeatsMore')}`;
    case 'expired':
      return t('roomExpired');
    default:
      return '';
  }
}

/**
 * The waiting room of an opening: join once (one place per person), then the place in line, the
 * people ahead, the estimated wait and the seats left, polled at the pace the server sets. The
 * token is kept on this device, so closing the page keeps the place. When the turn comes the
 * booking takes over; when no seat is left the person is told at once, and keeps the place in
 * case seats come back.
 */
export function WaitingRoom({ place, opening, nationalId, onNationalIdChange, onAdmitted, onClosed, onLeave }: WaitingRoomProps) {
  const { t, lang } = useI18n();
  const [token, setToken] = useState<string | null>(() => savedToken(opening.id));
  const [answer, setAnswer] = useState<RoomAnswer | null>(null);
  const [trouble, setTrouble] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [joining, setJoining] = useState(false);
  const handlers = useRef({ onAdmitted, onClosed });
  handlers.current = { onAdmitted, onClosed };
  // A join answers with a status already: the first poll waits the pace it set.
  const firstPollAfter = useRef(0);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    let serverAhead = 0;
    const hooks = {
      onStatus: (next: RoomAnswer) => {
        serverAhead = next.serverAheadMs;
        setAnswer(next);
        setTrouble(null);
      },
      onTrouble: (ms: number) => setTrouble(Math.ceil(ms / 1000)),
    };
    const after = firstPollAfter.current;
    firstPollAfter.current = 0;
    void pollRoom((value, signal) => api.roomStatus(value, signal), token, hooks, controller.signal, undefined, after).then((end) => {
      if (end.kind === 'invalid') {
        forgetToken(opening.id);
        setToken(null);
        setAnswer(null);
        setNotice(t('roomTokenLost'));
      } else if (end.kind === 'settled' && end.status.state === 'admitted' && end.status.admittedUntil) {
        handlers.current.onAdmitted({
          openingId: opening.id, token, placeIds: opening.placeIds, deadline: Date.parse(end.status.admittedUntil) - serverAhead,
        });
      } else if (end.kind === 'settled' && end.status.state === 'closed') {
        forgetToken(opening.id);
        handlers.current.onClosed();
      }
    });
    return () => controller.abort();
    // t only words the refusal; a language switch must not restart the poll.
  }, [token, opening.id, opening.placeIds]);

  const join = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setTouched(true);
    setNotice(null);
    if (validateNationalId(nationalId)) {
      (e.currentTarget.elements.namedItem('nationalId') as HTMLInputElement | null)?.focus();
      return;
    }
    setJoining(true);
    try {
      const joined = await api.joinRoom(opening.id, nationalId);
      saveToken(opening.id, joined.token);
      setAnswer({ status: joined.status, askAgainMs: joined.status.askAgainSeconds * 1000, serverAheadMs: 0 });
      firstPollAfter.current = joined.status.askAgainSeconds * 1000;
      setToken(joined.token);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'opening-closed') return handlers.current.onClosed();
      setNotice(error instanceof ApiError ? problemMessage(error.problem, t) : t('gaveUpOffline'));
    } finally {
      setJoining(false);
    }
  };

  const status = answer?.status;
  const opensAt = clockTime(Date.parse(opening.opensAt), lang);
  const fieldError = touched ? validateNationalId(nationalId) : undefined;

  return (
    <section className="room">
      <StepHeading>{t('roomTitle')}</StepHeading>
      <p>{t('roomIntro', { place: place.name })}</p>
      <p className="muted">{t('roomFair', { time: opensAt })}</p>
      {notice && <Notice kind="error">{notice}</Notice>}

      {!token && (
        <form onSubmit={join} noValidate>
          <Field label={t('nationalId')} name="nationalId" autoComplete="off" value={nationalId} onChange={onNationalIdChange}
            onBlur={() => setTouched(true)} error={fieldError ? t(fieldError) : undefined} hint={t('roomJoinHint')} required />
          <button type="submit" className="primary" disabled={joining} aria-busy={joining}>
            {joining ? t('roomJoining') : t('roomJoin')}
          </button>
        </form>
      )}

      {token && (
        <>
          {/* Read out when it changes; the figures below are not live, so nothing is read every second. */}
          <p className="sr-only" role="status" aria-live="polite" data-testid="room-announcement">
            {status ? announcement(status, t, lang) : ''}
          </p>
          {status?.state === 'no-seats-left' && (
            <div className="notice notice-error room-state" data-testid="room-no-seats">
              <p><strong>{t('roomNoSeats')}</strong></p>
              <p>{t('roomNoSeatsMore')}</p>
            </div>
          )}
          {status?.state === 'expired' && (
            <div className="notice notice-error room-state" data-testid="room-expired"><p>{t('roomExpired')}</p></div>
          )}
          {status?.state === 'waiting' && (
            <p className="room-state" data-testid="room-waiting">
              <strong>{t('roomInLine')}</strong>{' '}
              {status.ahead === null && t('roomBeforeOpening', { time: clockTime(Date.parse(status.opensAt), lang) })}
            </p>
          )}
          {status && (
            <dl className="room-figures">
              {status.position !== null && (
                <div><dt>{t('roomPosition')}</dt><dd data-testid="room-position">{status.position}</dd></div>
              )}
              {status.ahead !== null && (
                <div><dt>{t('roomAhead')}</dt><dd data-testid="room-ahead">{status.ahead}</dd></div>
              )}
              {status.state === 'waiting' && estimate(status.estimatedWaitSeconds, t) && (
                <div><dt>{t('roomEstimate')}</dt><dd>{estimate(status.estimatedWaitSeconds, t)}</dd></div>
              )}
              <div><dt>{t('roomSeatsLeft')}</dt><dd data-testid="room-seats">{status.seatsLeft}</dd></div>
            </dl>
          )}
          {trouble !== null && <p className="muted" role="status">{t('roomTrouble', { seconds: trouble })}</p>}
          {status?.state !== 'expired' && <p className="muted">{t('roomKeepPage')}</p>}
        </>
      )}
      <button type="button" className="secondary" onClick={onLeave}>{t('roomLeave')}</button>
    </section>
  );
}
