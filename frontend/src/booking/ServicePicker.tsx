import type { Place } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { StepHeading } from '../ui/StepHeading';
import { serviceName, servicesOf } from './services';

interface ServicePickerProps {
  place: Place;
  onPick: (code: string) => void;
  onChangePlace: () => void;
}

/** Step 2 where a place offers several services (an antigen test, a PCR test, a vaccine): which one to book. */
export function ServicePicker({ place, onPick, onChangePlace }: ServicePickerProps) {
  const { t, lang } = useI18n();
  return (
    <section>
      <StepHeading>{t('stepService')}</StepHeading>
      <p className="chosen">
        <strong>{place.name}</strong>, {place.address}{' '}
        <button type="button" className="link" onClick={onChangePlace}>{t('changePlace')}</button>
      </p>
      <ul className="places services">
        {servicesOf(place).map((service) => (
          <li key={service.code}>
            <button type="button" className="place" onClick={() => onPick(service.code)}>
              <strong>{serviceName(place, service.code, lang)}</strong>
              {service.minutes != null && <span className="muted">{t('serviceMinutes', { minutes: service.minutes })}</span>}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
