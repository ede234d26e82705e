import type { Place, Reservation } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { QrCode } from '../ui/QrCode';
import { StepHeading } from '../ui/StepHeading';
import { AppointmentRows } from './AppointmentRows';
import { serviceName } from './services';
import { saveFile } from '../ui/saveFile';
import { bookingDescription, type CalendarEvent, toIcs } from './ics';

interface ConfirmationProps {
  reservation: Reservation;
  place: Place;
  minutes: number;
  /** The service booked, where the place offers several. */
  service?: string;
  onNew: () => void;
}

/** The booking as confirmed by the API, with a calendar file made in the browser. */
export function Confirmation({ reservation, place, minutes, service, onNew }: ConfirmationProps) {
  const { t, lang } = useI18n();

  const second = reservation.secondDose;
  const download = () => {
    const event: CalendarEvent = {
      uid: `${reservation.code}@slots`,
      summary: t(second ? 'icsDoseSummary' : 'icsSummary', { place: reservation.placeName, dose: 1 }),
      location: `${reservation.placeName}, ${reservation.address}`,
      description: bookingDescription(reservation.code, t('code')),
      day: reservation.day,
      time: reservation.time,
      minutes,
      timeZone: place.timeZone,
    };
    // A pair's second appointment is an event of its own, under the same code.
    const ics = toIcs(second ? [event, {
      ...event, uid: `${reservation.code}-2@slots`, summary: t('icsDoseSummary', { place: reservation.placeName, dose: 2 }),
      day: second.day, time: second.time, minutes: second.minutes || minutes,
    }] : event, new Date());
    saveFile(new Blob([ics], { type: 'text/calendar;charset=utf-8' }), `slots-${reservation.code}.ics`);
  };

  return (
    <section className="confirmation">
      <StepHeading>{t('doneTitle')}</StepHeading>
      <p>{t('doneLead')}</p>
      {second && <p data-testid="pair-booked">{t('pairBooked')}</p>}
      <dl className="details">
        <dt>{t('code')}</dt>
        <dd className="code" data-testid="code">{reservation.code}</dd>
        {service && (
          <>
            <dt>{t('service')}</dt>
            <dd>{serviceName(place, service, lang)}</dd>
          </>
        )}
        <dt>{t('place')}</dt>
        <dd>{reservation.placeName}</dd>
        <dt>{t('address')}</dt>
        <dd>{reservation.address}</dd>
        <AppointmentRows reservation={reservation} />
      </dl>
      <QrCode text={reservation.code} label={t('qrLabel', { code: reservation.code })} />
      <p className="hint">{t('qrHint')}</p>
      <div className="actions">
        <button type="button" className="primary" onClick={download}>{t('downloadIcs')}</button>
        <button type="button" className="secondary" onClick={onNew}>{t('bookAnother')}</button>
      </div>
    </section>
  );
}
