import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { Wait } from '../api/retry';
import { api as publicApi } from '../api/slotsApi';
import type { StaffApi } from '../api/staffApi';
import type { Language, Problem, WalkIn } from '../api/types';
import { formatDay } from '../booking/dates';
import { invitationOf, needsServiceChoice, servicesOf, serviceName } from '../booking/services';
import { newIdempotencyKey } from '../booking/useBookingAttempt';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { SelectField } from '../ui/SelectField';
import { useLoad } from '../ui/useLoad';
import { staffError } from './staffMessages';
import { useStaffI18n } from './staffTexts';
import {
  attemptFor, emptyWalkIn, timeChoices, validateWalkIn, type WalkInAttempt, type WalkInDraft, type WalkInErrors, walkInFields, walkInOutcome,
  walkInProblemErrors, walkInRefusal, walkInRequest, type WalkInShape,
} from './walkIn';

interface WalkInCardProps {
  api: StaffApi;
  placeId: number;
  /** After a booking, so the roster and the audit are read again. */
  onBooked: () => void;
  onSignedOut: () => void;
}

// The SMS goes in the person's language, which need not be the desk's.
const languages: { code: Language; label: string }[] = [{ code: 'sk', label: 'Slovenčina' }, { code: 'en', label: 'English' }];

/**
 * Site staff book for a person at the door or on the phone: a free time of the place's day, the
 * person as on the booking page, the SMS and checking in now optional; the booking's code to hand over.
 */
export function WalkInCard({ api, placeId, onBooked, onSignedOut }: WalkInCardProps) {
  const { t, lang } = useStaffI18n();
  const place = useLoad(() => publicApi.place(placeId), [placeId]);
  const [draft, setDraft] = useState<WalkInDraft>(() => emptyWalkIn());
  const [errors, setErrors] = useState<WalkInErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [booked, setBooked] = useState<WalkIn | null>(null);
  const [inFlight, setInFlight] = useState(false);
  const [wait, setWait] = useState<Wait | null>(null);
  // Read the free seats again after each booking or refusal for want of one.
  const [bookings, setBookings] = useState(0);
  const attempt = useRef<WalkInAttempt | null>(null);

  const chooseService = place.data ? needsServiceChoice(place.data) : false;
  const service = chooseService ? draft.service : undefined;
  const shape: WalkInShape = { chooseService, invitation: place.data ? invitationOf(place.data, service) : undefined };
  // Without a day the API answers from the place's today: that day becomes the form's.
  const availability = useLoad(
    () => (place.data ? publicApi.availability(placeId, draft.day || undefined, draft.day || undefined, service) : Promise.resolve(undefined)),
    [placeId, place.data, draft.day, service, bookings],
  );
  const day = draft.day || availability.data?.from || '';
  const times = timeChoices(availability.data, day, draft.time);

  useEffect(() => {
    if (!draft.day && availability.data) setDraft((d) => (d.day ? d : { ...d, day: availability.data!.from }));
  }, [availability.data]);
  useEffect(() => {
    const offered = place.data ? servicesOf(place.data) : [];
    if (chooseService && !draft.service && offered.length > 0) setDraft((d) => ({ ...d, service: offered[0].code }));
  }, [place.data]);

  const change = <K extends keyof WalkInDraft>(field: K) => (value: WalkInDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value, ...(field === 'day' || field === 'service' ? { time: '' } : {}) }));
    if (field in errors) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const focusFirst = (form: HTMLFormElement, found: WalkInErrors) => {
    const first = walkInFields.find((f) => found[f]);
    if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
  };

  const refused = (problem: Problem, form: HTMLFormElement) => {
    if (problem.status === 401) return onSignedOut();
    const fields = walkInProblemErrors(problem);
    setErrors(fields);
    focusFirst(form, fields);
    setRefusal(walkInRefusal(problem, t, lang));
    if (problem.code === 'slot-full' || problem.code === 'slot-started' || problem.code === 'unknown-slot') {
      setDraft((d) => ({ ...d, time: '' }));
      setBookings((n) => n + 1);
    }
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const found = validateWalkIn(draft, shape);
    setErrors(found);
    setRefusal(null);
    setBooked(null);
    if (Object.keys(found).length > 0) {
      setRefusal(t('blockFormErrors'));
      return focusFirst(form, found);
    }
    const request = walkInRequest(draft, shape);
    attempt.current = attemptFor(attempt.current, placeId, request, newIdempotencyKey);
    setInFlight(true);
    try {
      const outcome = await api.walkIn(placeId, request, attempt.current.key, { onWait: setWait });
      switch (outcome.kind) {
        case 'done':
          attempt.current = null;
          setBooked(outcome.value);
          setDraft((d) => ({ ...emptyWalkIn(d.day, d.service), language: d.language, sms: d.sms }));
          setBookings((n) => n + 1);
          onBooked();
          return;
        case 'gave-up':
          return setRefusal(t(outcome.reason === 'busy' ? 'gaveUpBusy' : 'gaveUpOffline'));
        case 'aborted':
          return setRefusal(t('stopped'));
        case 'problem':
          return refused(outcome.problem, form);
      }
    } finally {
      setInFlight(false);
      setWait(null);
    }
  };

  if (place.error !== undefined) {
    return (
      <section className="card" aria-labelledby="walk-in">
        <h2 id="walk-in">{t('walkInTitle')}</h2>
        <Notice kind="error">
          {staffError(place.error, t)} <button type="button" className="link" onClick={place.reload}>{t('retry')}</button>
        </Notice>
      </section>
    );
  }

  const errorOf = (field: keyof WalkInErrors) => (errors[field] ? t(errors[field]) : undefined);
  const timesHint = availability.loading && !availability.data ? t('walkInTimesLoading') : times.length === 0 ? t('walkInNoTimes') : undefined;
  const outcome = booked && walkInOutcome(booked, t);

  return (
    <section className="card" aria-labelledby="walk-in">
      <h2 id="walk-in">{t('walkInTitle')}</h2>
      <p>{t('walkInLead')}</p>
      <form className="walk-in" onSubmit={(e) => void submit(e)} noValidate>
        <div className="row">
          <Field label={t('walkInDay')} name="day" type="date" value={day} onChange={change('day')} required error={errorOf('day')} />
          <SelectField label={t('walkInTime')} name="time" value={draft.time} onChange={change('time')} required hint={timesHint} error={errorOf('time')}>
            <option value="">{t('walkInChooseTime')}</option>
            {times.map((c) => (
              <option key={c.time} value={c.time}>{t(c.free > 0 ? 'walkInTimeFree' : 'walkInTimeTaken', { time: c.time, free: c.free })}</option>
            ))}
          </SelectField>
          {chooseService && place.data && (
            <SelectField label={t('service')} name="service" value={draft.service} onChange={change('service')} required error={errorOf('service')}>
              <option value="">{t('walkInChooseService')}</option>
              {servicesOf(place.data).map((s) => <option key={s.code} value={s.code}>{serviceName(place.data!, s.code, lang)}</option>)}
            </SelectField>
          )}
        </div>
        {availability.error !== undefined && <Notice kind="error">{staffError(availability.error, t)}</Notice>}
        <Field label={t('name')} name="name" autoComplete="off" maxLength={100} value={draft.name} onChange={change('name')} required error={errorOf('name')} />
        <div className="row">
          <Field label={t('phone')} name="phone" type="tel" autoComplete="off" value={draft.phone} onChange={change('phone')} required error={errorOf('phone')} />
          <Field label={t('nationalId')} name="nationalId" autoComplete="off" value={draft.nationalId} onChange={change('nationalId')} required
            error={errorOf('nationalId')} />
        </div>
        {shape.invitation && (
          <Field label={t('invitation')} name="invitation" autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={40}
            value={draft.invitation} onChange={change('invitation')} required={shape.invitation === 'required'} error={errorOf('invitation')}
            hint={t(shape.invitation === 'required' ? 'invitationHintRequired' : 'invitationHintAccepted')} />
        )}
        <SelectField label={t('walkInLanguage')} name="language" value={draft.language} onChange={(v) => change('language')(v as Language)}>
          {languages.map((l) => <option key={l.code} value={l.code} lang={l.code}>{l.label}</option>)}
        </SelectField>
        <label className="check">
          <input type="checkbox" name="sms" checked={draft.sms} onChange={(e) => change('sms')(e.currentTarget.checked)} /> {t('walkInSms')}
        </label>
        <label className="check">
          <input type="checkbox" name="checkIn" checked={draft.checkIn} onChange={(e) => change('checkIn')(e.currentTarget.checked)} /> {t('walkInCheckIn')}
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={inFlight || !place.data} aria-busy={inFlight}>
            {inFlight ? t('walkInSending') : t('walkInSubmit')}
          </button>
        </div>
      </form>
      {wait && <p role="status" className="loading">{t('walkInWaiting', { attempt: wait.attempt })}</p>}
      {refusal && <Notice kind="error">{refusal}</Notice>}
      {booked && outcome && (
        <div className="notice notice-success walk-in-done" role="status" data-testid="walk-in-done">
          <p>{t('walkInBooked')}: <span className="code" data-testid="walk-in-code">{booked.reservation.code}</span></p>
          <p>{t('walkInSlot', {
            day: formatDay(booked.reservation.day, lang, true), time: booked.reservation.time, minutes: booked.reservation.minutes, name: booked.reservation.name,
          })}</p>
          <p data-testid="walk-in-sms">{outcome.sms}</p>
          {outcome.checkIn && <p data-testid="walk-in-check-in" className={`check-in-${outcome.checkIn.kind}`}>{outcome.checkIn.text}</p>}
        </div>
      )}
    </section>
  );
}
