import { useState } from 'react';
import { useI18n } from '../i18n/I18n';
import { adminError } from './adminError';

/** Runs one staff action at a time and keeps its last success or failure message. */
export function useAdminAction() {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const run = async <T,>(action: () => Promise<T>, describe: (value: T) => string): Promise<T | undefined> => {
    setBusy(true);
    setResult(null);
    try {
      const value = await action();
      setResult({ kind: 'success', text: describe(value) });
      return value;
    } catch (error) {
      setResult({ kind: 'error', text: adminError(error, t) });
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  return { busy, result, run };
}
