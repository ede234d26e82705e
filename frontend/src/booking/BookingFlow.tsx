import { useEffect, useState } from 'react';
import { ApiError } from '../api/http';
import { api } from '../api/slotsApi';
import type { Alternative, Opening, Person, Place, Reservation } from '../api/types';
import { useI18n } from '../i18n/I18n';
import type { MessageKey } from '../i18n/messages';
import { AdmissionBanner } from '../room/AdmissionBanner';
import { forgetToken } from '../room/roomTokens';
import { type Admission, WaitingRoom } from '../room/WaitingRoom';
import { Notice } from '../ui/Notice';
import { StepHeading } from '../ui/StepHeading';
import { JoinWaitingListForm } from '../waitlist/JoinWaitingListForm';
import type { DayRange } from '../waitlist/waitlist';
import { Confirmation } from './Confirmation';
import { FullPlace } from './FullPlace';
import { PersonForm } from './PersonForm';
import { PlacePicker } from './PlacePicker';
import { ServicePicker } from './ServicePicker';
import { needsServiceChoice, serviceName, servicesKnown, servicesOf } from './services';
import { type LinkedSlot, type PickedSlot, WeekView } from './WeekView';

type Step =
  | { name: 'place'; notice?: MessageKey }
  | { name: 'link'; placeId: number }
  | { name: 'listed'; place: Place }
  | { name: 'room'; place: Place; opening: Opening }
  | { name: 'service'; place: Place; notice?: MessageKey; at?: LinkedSlot }
  | { name: 'slot'; place: Place; notice?: MessageKey; at?: LinkedSlot }
  | { name: 'person'; place: Place; slot: PickedSlot }
  | { name: 'waitlist'; place: Place; range: DayRange; today: string; service?: string }
  | { name: 'done'; place: Place; slot: PickedSlot; reservation: Reservation };

/** Today on the place's own clock (yyyy-MM-dd). */
function todayOf(place: Place): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: place.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

const nobody: Person = { name: '', phone: '', nationalId: '' };

/**
 * Place (read whole where the search list gave it without its services) → (waiting room, while the
 * place is in an opening) → (the service, where the place offers several) → week → person →
 * confirmation; from a week with no free seat (or a slot that filled meanwhile), the place's waiting list.
 * Personal data lives only in this component's memory. A link that names the place (placeId, from
 * a site's cancel SMS) starts at that place's week; one that also names a day and time (at, a vaccine
 * finder's deep link) opens the week of that day with that time picked, of the service it names.
 */
export function BookingFlow({ placeId, at, service }: { placeId?: number; at?: { day: string; time: string }; service?: string }) {
  const { t, lang } = useI18n();
  // The service chosen (or named by the link) at a place with several; unused where the place has one.
  const [chosen, setChosen] = useState<string | undefined>(service);
  const [step, setStep] = useState<Step>(placeId === undefined ? { name: 'place' } : { name: 'link', placeId });
  const [person, setPerson] = useState<Person>(nobody);
  const [invitation, setInvitation] = useState('');
  const [admission, setAdmission] = useState<Admission | null>(null);

  /** The place's week, once the person has chosen which of its services to book where it offers several. */
  const week = (place: Place, extra: { notice?: MessageKey; at?: LinkedSlot } = {}): Step =>
    needsServiceChoice(place) && !servicesOf(place).some((s) => s.code === chosen)
      ? { name: 'service', place, ...extra }
      : { name: 'slot', place, ...extra };
  const shownService = (place: Place): string | undefined => (needsServiceChoice(place) ? chosen : undefined);

  const turnAt = (place: Place): Admission | null =>
    admission && admission.placeIds.includes(place.id) && admission.deadline > Date.now() ? admission : null;

  /**
   * The place's booking, through its opening's waiting room when it is in one and the person has no
   * turn there; after a refusal for want of a turn (refusedBy names the opening), the room always.
   */
  const enter = async (place: Place, refusedBy?: number, linked?: { day: string; time: string }) => {
    let opening: Opening | undefined;
    try {
      opening = (await api.openings()).find((o) =>
        o.state === 'open' && (refusedBy === undefined ? o.placeIds.includes(place.id) : o.id === refusedBy));
    } catch {
      // Unknown now: the booking's own answer sends the person to the room if there is one.
    }
    if (refusedBy !== undefined) setAdmission(null);
    const hasTurn = refusedBy === undefined && opening !== undefined && turnAt(place)?.openingId === opening.id;
    setStep(opening && !hasTurn ? { name: 'room', place, opening }
      : week(place, { at: linked && { ...linked, today: todayOf(place), pick: true } }));
  };

  useEffect(() => {
    if (step.name !== 'link') return;
    let current = true;
    api.place(step.placeId).then(
      (place) => current && void enter(place, undefined, at),
      (error: unknown) => {
        // An unknown (or no longer listed) place: the person picks another; anything else may pass.
        const gone = error instanceof ApiError && (error.problem.status === 404 || error.problem.code === 'unknown-place');
        if (current) setStep({ name: 'place', notice: gone ? 'linkedPlaceUnknown' : 'linkedPlaceFailed' });
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const takeAlternative = async (place: Place, current: PickedSlot, alternative: Alternative) => {
    try {
      const target = alternative.placeId === place.id ? place : await api.place(alternative.placeId);
      // The offer carries no length; the day's fresh availability does.
      const day = await api.availability(target.id, alternative.day, alternative.day);
      const minutes = day.days[0]?.slots.find((s) => s.time === alternative.time)?.minutes ?? current.minutes;
      setStep({ name: 'person', place: target, slot: { day: alternative.day, time: alternative.time, minutes, service: current.service } });
    } catch {
      // The week view loads fresh availability and shows its own failure and retry.
      setStep(week(place));
    }
  };

  const turn = step.name === 'slot' || step.name === 'person' ? turnAt(step.place) : null;
  return (
    <>
      {/* Above the steps, so it stays (and is announced) once while the turn lasts. */}
      {turn && <AdmissionBanner key={turn.token} admission={turn} />}
      {body()}
    </>
  );

  function body() {
    switch (step.name) {
      case 'link':
        return <p role="status" className="loading">{t('loading')}</p>;
      case 'place':
        return (
          <>
            {step.notice && <Notice kind="info">{t(step.notice)}</Notice>}
            <PlacePicker onPick={(place) => {
              setChosen(undefined);
              // The list leaves services out: without them the service step and the invitation field would be skipped.
              if (servicesKnown(place)) void enter(place);
              else setStep({ name: 'listed', place });
            }} />
          </>
        );
      case 'listed':
        return (
          <FullPlace key={step.place.id} listed={step.place} onLoaded={(place) => void enter(place)}
            onChangePlace={() => setStep({ name: 'place' })} />
        );
      case 'room':
        return (
          <WaitingRoom
            key={step.opening.id}
            place={step.place}
            opening={step.opening}
            nationalId={person.nationalId}
            onNationalIdChange={(nationalId) => setPerson({ ...person, nationalId })}
            onAdmitted={(admitted) => {
              setAdmission(admitted);
              setStep(week(step.place));
            }}
            onClosed={() => setStep(week(step.place, { notice: 'roomClosedNow' }))}
            onLeave={() => setStep({ name: 'place' })}
          />
        );
      case 'service':
        return (
          <>
            {step.notice && <Notice kind="info">{t(step.notice)}</Notice>}
            <ServicePicker place={step.place} onChangePlace={() => setStep({ name: 'place' })}
              onPick={(code) => {
                setChosen(code);
                setStep({ name: 'slot', place: step.place, at: step.at });
              }} />
          </>
        );
      case 'slot': {
        const shown = shownService(step.place);
        return (
          <section>
            <StepHeading>{t('stepSlot')}</StepHeading>
            {step.notice && <Notice kind="info">{t(step.notice)}</Notice>}
            <p className="chosen">
              <strong>{step.place.name}</strong>, {step.place.address}{' '}
              <button type="button" className="link" onClick={() => setStep({ name: 'place' })}>{t('changePlace')}</button>
            </p>
            {shown && (
              <p className="chosen-service">
                {t('service')}: <strong>{serviceName(step.place, shown, lang)}</strong>{' '}
                <button type="button" className="link" onClick={() => setStep({ name: 'service', place: step.place })}>{t('changeService')}</button>
              </p>
            )}
            {step.place.openingHours && <p className="opening-hours">{t('openingHours')}: {step.place.openingHours}</p>}
            {step.place.closed && <Notice kind="info">{t('placeStateClosed')}</Notice>}
            <WeekView key={shown ?? ''} placeId={step.place.id} service={shown} linked={step.at}
              onPick={(slot) => setStep({ name: 'person', place: step.place, slot })}
              onJoinWaitingList={(range, today) => setStep({ name: 'waitlist', place: step.place, range, today, service: shown })} />
          </section>
        );
      }
      case 'person':
        return (
          <PersonForm
            key={`${step.place.id}-${step.slot.day}-${step.slot.time}`}
            place={step.place}
            slot={step.slot}
            person={person}
            onPersonChange={setPerson}
            invitation={invitation}
            onInvitationChange={setInvitation}
            roomToken={turn?.token}
            onRoomNeeded={(openingId) => void enter(step.place, openingId)}
            onBooked={(reservation) => {
              if (turn) {
                forgetToken(turn.openingId);
                setAdmission(null);
              }
              setPerson(nobody);
              setInvitation('');
              setStep({ name: 'done', place: step.place, slot: step.slot, reservation });
            }}
            // Back from a linked slot, to its own week and day.
            onChangeSlot={() => setStep({ name: 'slot', place: step.place,
              at: at && { ...step.slot, today: todayOf(step.place), pick: false } })}
            onPickAlternative={(alternative) => void takeAlternative(step.place, step.slot, alternative)}
            onJoinWaitingList={() => setStep({ name: 'waitlist', place: step.place, range: { from: step.slot.day, to: step.slot.day },
              today: todayOf(step.place), service: step.slot.service })}
          />
        );
      case 'waitlist':
        return (
          <JoinWaitingListForm key={step.place.id} place={step.place} service={step.service} range={step.range} today={step.today}
            person={person} onPersonChange={setPerson} onBack={() => setStep(week(step.place))} />
        );
      case 'done':
        return (
          <Confirmation reservation={step.reservation} place={step.place} minutes={step.slot.minutes} service={step.slot.service}
            onNew={() => setStep({ name: 'place' })} />
        );
    }
  }
}
