import { type FormEvent, useState } from 'react';
import { AdminApi } from '../api/adminApi';
import { apiBase } from '../api/slotsApi';
import { useI18n } from '../i18n/I18n';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { adminError } from './adminError';

/** Asks for the staff member's API key and checks it before keeping it. */
export function KeyForm({ onSignedIn }: { onSignedIn: (key: string) => void }) {
  const { t } = useI18n();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const signIn = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const today = new Date().toISOString().slice(0, 10);
      await new AdminApi(apiBase, key.trim()).stats(today, today);
      onSignedIn(key.trim());
    } catch (err) {
      setError(adminError(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={signIn} noValidate>
      {error && <Notice kind="error">{error}</Notice>}
      <Field label={t('apiKey')} type="password" autoComplete="off" value={key} onChange={setKey} hint={t('apiKeyHint')} required />
      <button type="submit" className="primary" disabled={busy || key.trim() === ''}>{t('signIn')}</button>
    </form>
  );
}
