import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/http';
import { api } from '../api/slotsApi';
import type { Place, Reservation, WaitingListEntry, WaitingListState } from '../api/types';
import { Confirmation } from '../booking/Confirmation';
import { dateLocale, formatDay } from '../booking/dates';
import { useI18n } from '../i18n/I18n';
import type { MessageKey } from '../i18n/messages';
import { Notice } from '../ui/Notice';
import { problemMessage } from '../ui/problemMessage';
import { StepHeading } from '../ui/StepHeading';
import { claimRefusal, forgetEntryToken, formatCountdown, pollDelayMs } from './waitlist';

const labels: Record<WaitingListState, MessageKey> = {
  waiting: 'wlLabelWaiting', offered: 'wlLabelOffered', booked: 'wlLabelBooked', left: 'wlLabelLeft', expired: 'wlLabelExpired',
};

type Failure = { kind: 'not-found' } | { kind: 'trouble' };

/**
 * A waiting-list entry, from the join or the offer SMS's link: where it stands (asked again every 10 s,
 * every 2 s while a seat is held), the held seat with its countdown and claim, and leaving.
 */
export function WaitingListPage({ token }: { token: string }) {
  const { t, lang } = useI18n();
  const [entry, setEntry] = useState<WaitingListEntry | null>(null);
  const [aheadMs, setAheadMs] = useState(0);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [place, setPlace] = useState<Place | null>(null);
  const [booked, setBooked] = useState<Reservation | null>(null);
  const [busy, setBusy] = useState<'claim' | 'leave' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const refresh = useCallback(() => setGeneration((g) => g + 1), []);

  // Ask now, then again after the state's delay; a finished entry is not asked again.
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      let delay: number | null = 10_000;
      try {
        const answer = await api.waitingListEntry(token, controller.signal);
        setEntry(answer.entry);
        setAheadMs(answer.serverAheadMs);
        setFailure(null);
        delay = pollDelayMs(answer.entry.state);
        if (delay === null) forgetEntryToken(answer.entry.placeId);
      } catch (error) {
        if (controller.signal.aborted) return;
        const gone = error instanceof ApiError && (error.code === 'waiting-list-entry-not-found' || error.problem.status === 404);
        setFailure(gone ? { kind: 'not-found' } : { kind: 'trouble' });
        if (gone) delay = null;
      }
      if (delay !== null && !controller.signal.aborted) timer = setTimeout(() => void ask(), delay);
    };
    void ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [token, generation]);

  const placeId = entry?.placeId;
  useEffect(() => {
    if (placeId === undefined) return;
    let current = true;
    api.place(placeId).then((p) => current && setPlace(p), () => {
      // The name is a nicety: the entry's screen works without it.
    });
    return () => {
      current = false;
    };
  }, [placeId]);

  const claim = async () => {
    setBusy('claim');
    setMessage(null);
    try {
      const reservation = await api.claimOffer(token);
      if (placeId !== undefined) forgetEntryToken(placeId);
      setBooked(reservation);
    } catch (error) {
      const problem = error instanceof ApiError ? error.problem : { status: 0, title: String(error) };
      const own = claimRefusal(problem.code);
      setMessage(own ? t(own) : problemMessage(problem, t));
      refresh();
    } finally {
      setBusy(null);
    }
  };

  const leave = async () => {
    setBusy('leave');
    setMessage(null);
    try {
      await api.leaveWaitingList(token);
      if (placeId !== undefined) forgetEntryToken(placeId);
    } catch (error) {
      const problem = error instanceof ApiError ? error.problem : { status: 0, title: String(error) };
      setMessage(problemMessage(problem, t));
    } finally {
      setBusy(null);
      refresh();
    }
  };

  if (booked && place && entry?.offer) {
    return <Confirmation reservation={booked} place={place} minutes={entry.offer.minutes} onNew={() => { location.hash = '#/'; }} />;
  }
  if (booked) {
    // The place could not be read: the code is what matters.
    return (
      <section>
        <StepHeading>{t('doneTitle')}</StepHeading>
        <p>{t('wlBookedCode', { code: booked.code })}</p>
      </section>
    );
  }

  return (
    <section className="waitlist">
      <StepHeading>{t('wlTitle')}</StepHeading>
      {place && <p className="chosen"><strong>{place.name}</strong>, {place.address}</p>}
      {failure?.kind === 'not-found' && <Notice kind="error">{t('wlNotFound')}</Notice>}
      {failure?.kind === 'trouble' && <Notice kind="error">{t('wlTrouble')}</Notice>}
      {message && <Notice kind="error">{message}</Notice>}
      {!entry && !failure && <p role="status" className="loading">{t('loading')}</p>}
      {/* One live region: each change of state (and of the place in line) is read out once. */}
      <p role="status" className="wl-announce" data-testid="wl-state-text">{entry ? stateText(entry) : ''}</p>
      {entry && (
        <>
          <dl className="details">
            <dt>{t('wlState')}</dt>
            <dd data-testid="wl-state" data-state={entry.state}><span className={`badge badge-${entry.state}`}>{t(labels[entry.state])}</span></dd>
            {entry.position > 0 && (
              <>
                <dt>{t('wlPosition')}</dt>
                <dd data-testid="wl-position">{entry.position}</dd>
              </>
            )}
            <dt>{t('wlDays')}</dt>
            <dd>{formatDay(entry.from, lang)} – {formatDay(entry.to, lang)}</dd>
          </dl>
          {entry.state === 'offered' && entry.offer && (
            <Offer expiresAt={Date.parse(entry.offer.expiresAt) - aheadMs} onClaim={() => void claim()} claiming={busy === 'claim'} />
          )}
          {entry.state === 'waiting' && <p className="hint">{t('wlKeepPage')}</p>}
          {entry.state === 'booked' && entry.bookedCode && (
            <p>{t('wlBookedCode', { code: entry.bookedCode })} <a href={`#/manage/${entry.bookedCode}`}>{t('wlShowBooking')}</a></p>
          )}
          {(entry.state === 'left' || entry.state === 'expired') && (
            <p><a href={`#/place/${entry.placeId}`}>{t('wlJoinAgain')}</a></p>
          )}
          {(entry.state === 'waiting' || entry.state === 'offered') && (
            <div className="actions">
              <button type="button" className="secondary" disabled={busy !== null} aria-busy={busy === 'leave'} onClick={() => void leave()}>
                {busy === 'leave' ? t('wlLeaving') : t('wlLeave')}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );

  function stateText(e: WaitingListEntry): string {
    switch (e.state) {
      case 'waiting':
        return t('wlStateWaiting', { position: e.position });
      case 'offered':
        return e.offer ? t('wlStateOffered', { day: formatDay(e.offer.day, lang, true), time: e.offer.time }) : t('wlLabelOffered');
      case 'booked':
        return t('wlStateBooked');
      case 'left':
        return t('wlStateLeft');
      case 'expired':
        return t('wlStateExpired');
    }
  }
}

/** The held seat's countdown (not live: the offer itself was announced) and its claim. */
function Offer({ expiresAt, onClaim, claiming }: { expiresAt: number; onClaim: () => void; claiming: boolean }) {
  const { t, lang } = useI18n();
  const [now, setNow] = useState(() => Date.now());
  const warned = useRef(false);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const left = expiresAt - now;
  if (left < 60_000) warned.current = true;
  const until = new Date(expiresAt).toLocaleTimeString(dateLocale(lang), { hour: '2-digit', minute: '2-digit' });
  return (
    <div className="notice notice-success offer" data-testid="wl-offer">
      <p>
        {t('wlHeldFor', { until })}{' '}
        <time className="countdown" data-testid="wl-countdown" dateTime={`PT${Math.max(0, Math.ceil(left / 1000))}S`}>{formatCountdown(left)}</time>
      </p>
      {/* Announced once, when the last minute starts. */}
      <p role="status" className="muted">{warned.current && left > 0 ? t('wlHeldLastMinute') : ''}</p>
      <div className="actions">
        <button type="button" className="primary" disabled={claiming || left <= 0} aria-busy={claiming} onClick={onClaim}>
          {claiming ? t('wlClaiming') : t('wlClaim')}
        </button>
      </div>
    </div>
  );
}
