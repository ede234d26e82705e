import { type FormEvent, useState } from 'react';
import type { Alternative, Person, Place, Problem, Reservation } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { problemMessage } from '../ui/problemMessage';
import { StepHeading } from '../ui/StepHeading';
import { Alternatives } from './Alternatives';
import { formatDay } from './dates';
import { PersonFields } from './PersonFields';
import { bookedService, secondDayRefusal, secondDoseDays, validateSecondDay } from './pairs';
import { SecondDoseField } from './SecondDoseField';
import { invitationOf, serviceName } from './services';
import type { PickedSlot } from './WeekView';
import { useBookingAttempt } from './useBookingAttempt';
import { useDoseInterval } from './useDoseInterval';
import { personRules, validateInvitation, validatePerson } from './validation';
import { WaitingScreen } from './WaitingScreen';

interface PersonFormProps {
  place: Place;
  slot: PickedSlot;
  person: Person;
  onPersonChange: (person: Person) => void;
  /** The invitation code as typed, kept with the person while they change the slot. */
  invitation: string;
  onInvitationChange: (invitation: string) => void;
  onBooked: (reservation: Reservation) => void;
  onChangeSlot: () => void;
  onPickAlternative: (alternative: Alternative) => void;
  /** The admitted waiting-room token, while the place is in an opening and the turn lasts. */
  roomToken?: string;
  /** The booking was refused for want of a turn: into the waiting room of that opening. */
  onRoomNeeded: (openingId: number | undefined) => void;
  /** The slot filled meanwhile: onto the place's waiting list for its day instead. */
  onJoinWaitingList: () => void;
}

type FormField = keyof Person | 'invitation' | 'secondDay';
type FieldErrors = Partial<Record<FormField, string>>;
// In the form's order: the first wrong one takes the focus.
const fields: FormField[] = ['secondDay', 'name', 'phone', 'nationalId', 'invitation'];

/** Step 3: who is coming; then the booking itself, with waiting and refusals. */
export function PersonForm({
  place, slot, person, onPersonChange, invitation, onInvitationChange, onBooked, onChangeSlot, onPickAlternative, roomToken, onRoomNeeded,
  onJoinWaitingList,
}: PersonFormProps) {
  const { t, lang } = useI18n();
  const { submit, stop, inFlight, wait } = useBookingAttempt();
  const [touched, setTouched] = useState<Partial<Record<FormField, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // The place as the page read it may say nothing of codes (the rule changed since): the API's refusal asks for one then.
  const [askedForCode, setAskedForCode] = useState(false);
  const mode = invitationOf(place, slot.service) ?? (askedForCode ? 'required' : undefined);
  // A two-dose service: the second appointment is booked with this one, on a day the person may choose.
  const interval = useDoseInterval(bookedService(place, slot.service));
  const secondDays = interval && secondDoseDays(slot.day, interval);
  const [secondDay, setSecondDay] = useState('');
  // The refusal concerned the second-dose day chosen: said at that field, the alert only points there.
  const [refusedSecondDay, setRefusedSecondDay] = useState(false);

  const ruleOf = (field: FormField) =>
    field === 'invitation' ? (mode ? validateInvitation(invitation, mode === 'required') : undefined)
      : field === 'secondDay' ? (secondDays ? validateSecondDay(secondDay, secondDays) : undefined)
        : personRules[field](person[field]);

  const errorOf = (field: FormField): string | undefined => {
    const local = touched[field] ? ruleOf(field) : undefined;
    if (local === 'errSecondDay' && secondDays) return t(local, { from: formatDay(secondDays.from, lang), to: formatDay(secondDays.to, lang) });
    return local ? t(local) : serverErrors[field];
  };

  const change = (field: keyof Person) => (value: string) => {
    onPersonChange({ ...person, [field]: value });
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  };

  const changeInvitation = (value: string) => {
    onInvitationChange(value);
    setServerErrors((e) => ({ ...e, invitation: undefined }));
  };

  const changeSecondDay = (value: string) => {
    setSecondDay(value);
    setServerErrors((e) => ({ ...e, secondDay: undefined }));
  };

  const confirm = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setTouched({ name: true, phone: true, nationalId: true, invitation: true, secondDay: true });
    setProblem(null);
    setMessage(null);
    setRefusedSecondDay(false);
    const personErrors = validatePerson(person);
    const invalid = fields.find((f) => (f === 'invitation' || f === 'secondDay' ? ruleOf(f) : personErrors[f]));
    if (invalid) {
      (form.elements.namedItem(invalid) as HTMLInputElement | null)?.focus();
      return;
    }
    const code = mode ? invitation.trim() : '';
    // The second dose on the day chosen keeps the first dose's time; none chosen, the API takes the earliest free day.
    const second = secondDays && secondDay ? { secondDay, secondTime: slot.time } : {};
    const outcome = await submit({
      placeId: place.id, day: slot.day, time: slot.time, ...person, language: lang, service: slot.service, ...(code ? { invitation: code } : {}),
      ...second,
    }, roomToken);
    switch (outcome.kind) {
      case 'done':
        return onBooked(outcome.value);
      case 'gave-up':
        return setMessage(t(outcome.reason === 'busy' ? 'gaveUpBusy' : 'gaveUpOffline'));
      case 'aborted':
        return setMessage(t('stopped'));
      case 'problem':
        if (outcome.problem.code === 'waiting-room-required' || outcome.problem.code === 'waiting-room-not-admitted') {
          return onRoomNeeded(outcome.problem.openingId);
        }
        setProblem(outcome.problem);
        setServerErrors(Object.fromEntries(fields.map((f) => [f, outcome.problem.errors?.[f]?.join(' ')])));
        if (outcome.problem.code === 'not-eligible' && outcome.problem.rule === 'invitation') {
          // The code is what was refused: the field says why too (and appears, where the place did not say).
          setAskedForCode(true);
          setServerErrors((e) => ({ ...e, invitation: problemMessage(outcome.problem, t, lang) }));
        }
        const refusal = secondDayRefusal(outcome.problem, 'secondDay' in second);
        if (refusal) {
          setRefusedSecondDay(true);
          setServerErrors((e) => ({ ...e, secondDay: t(refusal, { time: slot.time }) }));
        }
    }
  };

  if (wait) return <WaitingScreen wait={wait} onStop={stop} />;

  const slotFull = problem?.code === 'slot-full';
  return (
    <section>
      <StepHeading>{t('stepPerson')}</StepHeading>
      <p className="chosen">
        {t('chosenSlot', { place: place.name, day: formatDay(slot.day, lang, true), time: slot.time })}
        {slot.service && <> ({serviceName(place, slot.service, lang)})</>}{' '}
        <button type="button" className="link" onClick={onChangeSlot}>{t('changeSlot')}</button>
      </p>
      {message && <Notice kind="error">{message}</Notice>}
      {slotFull && (
        <div className="notice notice-error" role="alert">
          <p>{t('slotFull')}</p>
          <Alternatives alternatives={problem.alternatives ?? []} onPick={onPickAlternative} />
          <p><button type="button" className="link" onClick={onJoinWaitingList}>{t('wlJoin')}</button></p>
        </div>
      )}
      {problem && !slotFull && (
        <Notice kind="error">{refusedSecondDay ? t('formHasErrors') : problemMessage(problem, t, lang)}</Notice>
      )}
      <form onSubmit={confirm} noValidate>
        {interval && (
          <SecondDoseField interval={interval} firstDay={slot.day} time={slot.time} value={secondDay} onChange={changeSecondDay}
            onBlur={() => setTouched((s) => ({ ...s, secondDay: true }))} error={errorOf('secondDay')} />
        )}
        <PersonFields person={person} onChange={(field, value) => change(field)(value)}
          onBlur={(field) => setTouched((s) => ({ ...s, [field]: true }))} errorOf={errorOf} />
        {mode && (
          <Field label={t('invitation')} name="invitation" autoComplete="off" autoCapitalize="characters" spellCheck={false}
            value={invitation} onChange={changeInvitation} onBlur={() => setTouched((s) => ({ ...s, invitation: true }))}
            error={errorOf('invitation')} hint={t(mode === 'required' ? 'invitationHintRequired' : 'invitationHintAccepted')}
            maxLength={40} required={mode === 'required'} />
        )}
        <button type="submit" className="primary" disabled={inFlight} aria-busy={inFlight}>
          {inFlight ? t('booking') : t('confirm')}
        </button>
      </form>
    </section>
  );
}
