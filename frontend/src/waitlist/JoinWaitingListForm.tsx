import { type FormEvent, useState } from 'react';
import { ApiError } from '../api/http';
import { api } from '../api/slotsApi';
import type { Person, Place, Problem } from '../api/types';
import { PersonFields } from '../booking/PersonFields';
import { serviceName } from '../booking/services';
import { personRules, validatePerson } from '../booking/validation';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { problemMessage } from '../ui/problemMessage';
import { StepHeading } from '../ui/StepHeading';
import { type DayRange, lastDayFrom, rangeErrors, saveEntryToken, savedEntryToken } from './waitlist';

interface JoinWaitingListFormProps {
  place: Place;
  /** The service waited for, where the place offers several (the one whose week or slot was full). */
  service?: string;
  /** The days offered at first (the shown week's from today, or the full slot's day). */
  range: DayRange;
  /** Today at the place: the first day one may ask for. */
  today: string;
  person: Person;
  onPersonChange: (person: Person) => void;
  onBack: () => void;
}

type Touched = Partial<Record<keyof Person | keyof DayRange, boolean>>;
const personFields: (keyof Person)[] = ['name', 'phone', 'nationalId'];

/** Onto a full place's waiting list: the days one could come and who one is; then the entry's screen. */
export function JoinWaitingListForm({ place, service, range: initial, today, person, onPersonChange, onBack }: JoinWaitingListFormProps) {
  const { t, lang } = useI18n();
  const [range, setRange] = useState<DayRange>(initial);
  const [touched, setTouched] = useState<Touched>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<string, string>>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [inFlight, setInFlight] = useState(false);
  const saved = savedEntryToken(place.id);

  const dayErrors = rangeErrors(range, today);
  const errorOf = (field: keyof Person | keyof DayRange): string | undefined => {
    if (!touched[field]) return serverErrors[field];
    const local = field === 'from' || field === 'to' ? dayErrors[field] : personRules[field](person[field]);
    return local ? t(local) : serverErrors[field];
  };
  const touch = (field: keyof Person | keyof DayRange) => setTouched((s) => ({ ...s, [field]: true }));
  const changeDay = (field: keyof DayRange) => (value: string) => {
    setRange((r) => ({ ...r, [field]: value }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  };

  const join = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setTouched({ from: true, to: true, name: true, phone: true, nationalId: true });
    setProblem(null);
    const personErrors = validatePerson(person);
    const invalid = (['from', 'to'] as const).find((f) => dayErrors[f]) ?? personFields.find((f) => personErrors[f]);
    if (invalid) {
      (form.elements.namedItem(invalid) as HTMLInputElement | null)?.focus();
      return;
    }
    setInFlight(true);
    try {
      const entry = await api.joinWaitingList({ placeId: place.id, ...range, ...person, language: lang, service });
      if (entry.token) {
        saveEntryToken(place.id, entry.token);
        onPersonChange({ name: '', phone: '', nationalId: '' });
        location.hash = `#/waitlist/${entry.token}`;
      }
    } catch (error) {
      const answer = error instanceof ApiError ? error.problem : { status: 0, title: String(error) };
      setProblem(answer);
      setServerErrors(Object.fromEntries(Object.entries(answer.errors ?? {}).map(([k, v]) => [k, v.join(' ')])));
    } finally {
      setInFlight(false);
    }
  };

  return (
    <section>
      <StepHeading>{t('wlTitle')}</StepHeading>
      <p className="chosen"><strong>{place.name}</strong>, {place.address}</p>
      {service && <p className="chosen-service">{t('service')}: <strong>{serviceName(place, service, lang)}</strong></p>}
      <p>{t('wlJoinLead', { place: place.name })}</p>
      {saved && (
        <Notice kind="info">
          {t('wlOnList')} <a href={`#/waitlist/${saved}`}>{t('wlSeeEntry')}</a>
        </Notice>
      )}
      {problem && <JoinProblem problem={problem} saved={saved} onBack={onBack} />}
      <form onSubmit={join} noValidate>
        <fieldset className="range">
          <legend>{t('wlDays')}</legend>
          <p className="hint">{t('wlRangeHint')}</p>
          <Field label={t('wlFrom')} name="from" type="date" value={range.from} min={today} onChange={changeDay('from')}
            onBlur={() => touch('from')} error={errorOf('from')} required />
          <Field label={t('wlTo')} name="to" type="date" value={range.to} min={range.from || today}
            max={/^\d{4}-\d{2}-\d{2}$/.test(range.from) ? lastDayFrom(range.from) : undefined} onChange={changeDay('to')}
            onBlur={() => touch('to')} error={errorOf('to')} required />
        </fieldset>
        <PersonFields person={person} onChange={(field, value) => {
          onPersonChange({ ...person, [field]: value });
          setServerErrors((e) => ({ ...e, [field]: undefined }));
        }} onBlur={touch} errorOf={errorOf} phoneHint={t('wlPhoneHint')} />
        <div className="actions">
          <button type="submit" className="primary" disabled={inFlight} aria-busy={inFlight}>{inFlight ? t('wlJoining') : t('wlJoinSubmit')}</button>
          <button type="button" className="secondary" onClick={onBack}>{t('wlBackToWeek')}</button>
        </div>
      </form>
    </section>
  );
}

function JoinProblem({ problem, saved, onBack }: { problem: Problem; saved: string | null; onBack: () => void }) {
  const { t } = useI18n();
  switch (problem.code) {
    case 'seats-free':
      return (
        <Notice kind="error">
          {t('wlSeatsFree')} <button type="button" className="link" onClick={onBack}>{t('wlBackToWeek')}</button>
        </Notice>
      );
    case 'waiting-list-joined': {
      const position = (problem as { position?: number }).position;
      return (
        <Notice kind="error">
          {position ? t('wlAlreadyJoined', { position }) : t('wlAlreadyJoinedNoPosition')}
          {saved && <> <a href={`#/waitlist/${saved}`}>{t('wlSeeEntry')}</a></>}
        </Notice>
      );
    }
    default:
      return <Notice kind="error">{problemMessage(problem, t)}</Notice>;
  }
}
