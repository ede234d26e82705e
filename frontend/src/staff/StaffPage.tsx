import { useMemo } from 'react';
import { apiBase } from '../api/slotsApi';
import { StaffApi } from '../api/staffApi';
import { SignIn } from '../signin/SignIn';
import { useSignIn } from '../signin/useSignIn';
import { useStaffI18n } from './staffTexts';
import { Notice } from '../ui/Notice';
import { StepHeading } from '../ui/StepHeading';
import { StaffDesk } from './StaffDesk';

/** The door: staff sign in, choose their place, check people in, and read the day's roster. */
export function StaffPage() {
  const { t } = useStaffI18n();
  const { token, notice, setNotice, signingIn, takePasted, signOut } = useSignIn('staff');
  const api = useMemo(() => (token ? new StaffApi(apiBase, token.token) : null), [token]);

  return (
    <section className="staff">
      <StepHeading>{t('staffTitle')}</StepHeading>
      {notice && <Notice kind="error">{notice}</Notice>}
      {api ? (
        <StaffDesk api={api} onSignOut={signOut} />
      ) : signingIn ? (
        <p role="status" className="loading">{t('staffSigningIn')}</p>
      ) : (
        <SignIn screen="staff" onToken={takePasted} onError={setNotice} />
      )}
    </section>
  );
}
