import { useMemo } from 'react';
import { AdminApi } from '../api/adminApi';
import { apiBase } from '../api/slotsApi';
import { SignIn } from '../signin/SignIn';
import { useSignInI18n } from '../signin/signInTexts';
import { useSignIn } from '../signin/useSignIn';
import { Notice } from '../ui/Notice';
import { StepHeading } from '../ui/StepHeading';
import { AdminDesk } from './AdminDesk';

/** Places, slots, openings and statistics, for admins and viewers signed in through the site's OpenID provider. */
export function AdminPage() {
  const { t } = useSignInI18n();
  const { token, notice, setNotice, signingIn, takePasted, signOut } = useSignIn('admin');
  const admin = useMemo(() => (token ? new AdminApi(apiBase, token.token) : null), [token]);

  return (
    <section className="admin">
      <StepHeading>{t('adminTitle')}</StepHeading>
      {notice && <Notice kind="error">{notice}</Notice>}
      {admin && token ? (
        <AdminDesk admin={admin} token={token.token} onSignOut={signOut} />
      ) : signingIn ? (
        <p role="status" className="loading">{t('staffSigningIn')}</p>
      ) : (
        <SignIn screen="admin" onToken={takePasted} onError={setNotice} />
      )}
    </section>
  );
}
