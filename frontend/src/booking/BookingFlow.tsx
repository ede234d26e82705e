import { useState } from 'react';
import { api } from '../api/slotsApi';
import type { Alternative, Person, Place, Reservation } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { StepHeading } from '../ui/StepHeading';
import { Confirmation } from './Confirmation';
import { PersonForm } from './PersonForm';
import { PlacePicker } from './PlacePicker';
import { type PickedSlot, WeekView } from './WeekView';

type Step =
  | { name: 'place' }
  | { name: 'slot'; place: Place }
  | { name: 'person'; place: Place; slot: PickedSlot }
  | { name: 'done'; place: Place; slot: PickedSlot; reservation: Reservation };

const nobody: Person = { name: '', phone: '', nationalId: '' };

/** Place → week → person → confirmation. Personal data lives only in this component's memory. */
export function BookingFlow() {
  const { t } = useI18n();
  const [step, setStep] = useState<Step>({ name: 'place' });
  const [person, setPerson] = useState<Person>(nobody);

  const takeAlternative = async (place: Place, current: PickedSlot, alternative: Alternative) => {
    try {
      const target = alternative.placeId === place.id ? place : await api.place(alternative.placeId);
      // The offer carries no length; the day's fresh availability does.
      const day = await api.availability(target.id, alternative.day, alternative.day);
      const minutes = day.days[0]?.slots.find((s) => s.time === alternative.time)?.minutes ?? current.minutes;
      setStep({ name: 'person', place: target, slot: { day: alternative.day, time: alternative.time, minutes } });
    } catch {
      // The week view loads fresh availability and shows its own failure and retry.
      setStep({ name: 'slot', place });
    }
  };

  switch (step.name) {
    case 'place':
      return <PlacePicker onPick={(place) => setStep({ name: 'slot', place })} />;
    case 'slot':
      return (
        <section>
          <StepHeading>{t('stepSlot')}</StepHeading>
          <p className="chosen">
            <strong>{step.place.name}</strong>, {step.place.address}{' '}
            <button type="button" className="link" onClick={() => setStep({ name: 'place' })}>{t('changePlace')}</button>
          </p>
          <WeekView placeId={step.place.id} onPick={(slot) => setStep({ name: 'person', place: step.place, slot })} />
        </section>
      );
    case 'person':
      return (
        <PersonForm
          key={`${step.place.id}-${step.slot.day}-${step.slot.time}`}
          place={step.place}
          slot={step.slot}
          person={person}
          onPersonChange={setPerson}
          onBooked={(reservation) => {
            setPerson(nobody);
            setStep({ name: 'done', place: step.place, slot: step.slot, reservation });
          }}
          onChangeSlot={() => setStep({ name: 'slot', place: step.place })}
          onPickAlternative={(alternative) => void takeAlternative(step.place, step.slot, alternative)}
        />
      );
    case 'done':
      return (
        <Confirmation reservation={step.reservation} place={step.place} minutes={step.slot.minutes}
          onNew={() => setStep({ name: 'place' })} />
      );
  }
}
