import { api } from '../api/slotsApi';
import { LoadState } from '../ui/LoadState';
import { StepHeading } from '../ui/StepHeading';
import { useLoad } from '../ui/useLoad';
import { retentionPeriod, usePrivacyI18n } from './privacyTexts';

/** What personal data is kept, why, for how long (the server's own setting), how to see and erase it, and whom to ask. */
export function PrivacyPage() {
  const { t } = usePrivacyI18n();
  const privacy = useLoad(() => api.privacy(), []);
  const data = privacy.data;

  return (
    <article className="privacy">
      <StepHeading>{t('privacyTitle')}</StepHeading>
      <p>{t('privacyLead')}</p>
      <h2>{t('privacyWhatTitle')}</h2>
      <ul>
        <li>{t('privacyName')}</li>
        <li>{t('privacyNationalId')}</li>
        <li>{t('privacyBooking')}</li>
        <li>{t('privacySms')}</li>
      </ul>
      <h2>{t('privacyWhyTitle')}</h2>
      <p>{t('privacyWhy')}</p>
      <h2>{t('privacyHowLongTitle')}</h2>
      {data ? <p data-testid="retention">{t('privacyHowLong', { period: retentionPeriod(data.retentionDays, t) })}</p> : <LoadState loaded={privacy} />}
      <h2>{t('privacyYoursTitle')}</h2>
      <p>{t('privacyYours')}</p>
      <p><a href="#/manage">{t('privacyManageLink')}</a></p>
      <h2>{t('privacyAskTitle')}</h2>
      {data && (
        <p data-testid="contact">
          {data.controller && <>{t('privacyController', { controller: data.controller })} </>}
          {data.contactEmail ? <>{t('privacyContact')} <a href={`mailto:${data.contactEmail}`}>{data.contactEmail}</a>.</> : t('privacyNoContact')}
        </p>
      )}
    </article>
  );
}
