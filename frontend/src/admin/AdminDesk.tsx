import type { AdminApi } from '../api/adminApi';
import { useSignInI18n } from '../signin/signInTexts';
import { tokenSubject } from '../signin/token';
import { Notice } from '../ui/Notice';
import { adminRole } from './adminRole';
import { CapacityCard } from './CapacityCard';
import { EligibilityCard } from './EligibilityCard';
import { CreatePlaceForm } from './CreatePlaceForm';
import { DemoDataForm } from './DemoDataForm';
import { GenerateSlotsForm } from './GenerateSlotsForm';
import { InvitationsCard } from './InvitationsCard';
import { OpeningsCard } from './OpeningsCard';
import { PlaceChangesCard } from './PlaceChangesCard';
import { PlaceServicesCard } from './PlaceServicesCard';
import { ServicesCard } from './ServicesCard';
import { StatsTable } from './StatsTable';
import { useCatalogue } from './useCatalogue';

/**
 * What the signed-in person may use: an admin everything, a viewer the statistics and the invitation batches (read only), anyone else
 * is told which role is missing. The role is read from the token to choose what to show; the API
 * checks it again on every call.
 */
export function AdminDesk({ admin, token, onSignOut }: { admin: AdminApi; token: string; onSignOut: () => void }) {
  const { t } = useSignInI18n();
  const role = adminRole(token);
  const subject = tokenSubject(token) ?? '—';
  const catalogue = useCatalogue(admin);
  // New slots are of active services; the statistics count any, inactive ones too.
  const active = catalogue.services.filter((s) => s.active);

  return (
    <>
      <div className="staff-bar">
        {role && <p>{t('signedInAs', { subject, role: t(role === 'admin' ? 'roleAdmin' : 'roleViewer') })}</p>}
        <button type="button" className="secondary" onClick={() => onSignOut()}>{t('signOut')}</button>
      </div>
      {role === null ? (
        <Notice kind="error">{t('missingRole', { subject })}</Notice>
      ) : role === 'viewer' ? (
        <div className="cards">
          <StatsTable admin={admin} catalogue={catalogue.services} />
          <InvitationsCard admin={admin} catalogue={catalogue.services} canChange={false} />
        </div>
      ) : (
        <div className="cards">
          <GenerateSlotsForm admin={admin} catalogue={active} />
          <StatsTable admin={admin} catalogue={catalogue.services} />
          <OpeningsCard admin={admin} />
          <CreatePlaceForm admin={admin} />
          <PlaceChangesCard admin={admin} />
          <ServicesCard admin={admin} catalogue={catalogue} />
          <EligibilityCard admin={admin} catalogue={catalogue.services} onSaved={catalogue.reload} />
          <InvitationsCard admin={admin} catalogue={catalogue.services} canChange />
          <PlaceServicesCard admin={admin} catalogue={catalogue.services} />
          <CapacityCard admin={admin} catalogue={catalogue.services} />
          <DemoDataForm admin={admin} />
        </div>
      )}
    </>
  );
}
