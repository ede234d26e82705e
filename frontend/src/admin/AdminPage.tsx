import { useMemo, useState } from 'react';
import { AdminApi } from '../api/adminApi';
import { apiBase } from '../api/slotsApi';
import { useI18n } from '../i18n/I18n';
import { StepHeading } from '../ui/StepHeading';
import { adminKey } from './adminKey';
import { CreatePlaceForm } from './CreatePlaceForm';
import { DemoDataForm } from './DemoDataForm';
import { GenerateSlotsForm } from './GenerateSlotsForm';
import { KeyForm } from './KeyForm';
import { OpeningsCard } from './OpeningsCard';
import { StatsTable } from './StatsTable';

/** Staff tools, behind the staff member's own API key. */
export function AdminPage() {
  const { t } = useI18n();
  const [key, setKey] = useState<string | null>(adminKey.read);
  const admin = useMemo(() => (key ? new AdminApi(apiBase, key) : null), [key]);

  const signIn = (value: string) => {
    adminKey.save(value);
    setKey(value);
  };
  const signOut = () => {
    adminKey.clear();
    setKey(null);
  };

  return (
    <section className="admin">
      <StepHeading>{t('adminTitle')}</StepHeading>
      {admin ? (
        <>
          <button type="button" className="secondary sign-out" onClick={signOut}>{t('signOut')}</button>
          <div className="cards">
            <GenerateSlotsForm admin={admin} />
            <StatsTable admin={admin} />
            <OpeningsCard admin={admin} />
            <CreatePlaceForm admin={admin} />
            <DemoDataForm admin={admin} />
          </div>
        </>
      ) : (
        <KeyForm onSignedIn={signIn} />
      )}
    </section>
  );
}
