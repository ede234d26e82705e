import { type FormEvent, lazy, Suspense, useRef, useState } from 'react';
import { ApiError } from '../api/http';
import type { StaffApi } from '../api/staffApi';
import { validateCode } from '../booking/validation';
import { useStaffI18n } from './staffTexts';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { checkInMessage, checkInRefusal, codeFromText, staffError } from './staffMessages';

// The camera and the QR decoder (zxing) are fetched only when the member opens the scanner.
const QrScanner = lazy(() => import('./QrScanner').then((m) => ({ default: m.QrScanner })));

interface CheckInCardProps {
  api: StaffApi;
  placeId: number;
  onCheckedIn: () => void;
  onSignedOut: () => void;
}

/** The door: a booking code typed or scanned (with the national id, when the person shows it). */
export function CheckInCard({ api, placeId, onCheckedIn, onSignedOut }: CheckInCardProps) {
  const { t, lang } = useStaffI18n();
  const [code, setCode] = useState('');
  const [nationalId, setNationalId] = useState('');
  const [busy, setBusy] = useState(false);
  const [scanning, setScanning] = useState(false);
  const [answer, setAnswer] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const focusCode = () => (form.current?.elements.namedItem('code') as HTMLInputElement | null)?.focus();

  const checkIn = async (value: string) => {
    const typed = codeFromText(value);
    if (!validateCode(typed)) {
      setAnswer({ kind: 'error', text: t('errCode') });
      focusCode();
      return;
    }
    setBusy(true);
    setAnswer(null);
    try {
      const result = await api.checkIn(placeId, { code: typed, nationalId: nationalId.trim() || undefined });
      setAnswer({ kind: 'success', text: checkInMessage(result, t, lang) });
      setCode('');
      setNationalId('');
      onCheckedIn();
    } catch (error) {
      if (error instanceof ApiError && error.problem.status === 401) return onSignedOut();
      setAnswer({ kind: 'error', text: error instanceof ApiError ? checkInRefusal(error.problem, t) : staffError(error, t) });
    } finally {
      setBusy(false);
      focusCode();
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void checkIn(code);
  };

  const scanned = (text: string) => {
    setScanning(false);
    setCode(codeFromText(text));
    void checkIn(text);
  };

  return (
    <section className="card" aria-labelledby="check-in">
      <h2 id="check-in">{t('checkInTitle')}</h2>
      <div className="check-in">
        <form ref={form} onSubmit={submit} noValidate>
          <Field label={t('code')} name="code" autoComplete="off" autoCapitalize="characters" spellCheck={false}
            value={code} onChange={setCode} />
          <Field label={t('checkInNationalId')} autoComplete="off" value={nationalId} onChange={setNationalId} hint={t('checkInNationalIdHint')} />
          <div className="actions">
            <button type="submit" className="primary" disabled={busy || code.trim() === ''}>{busy ? t('checkingIn') : t('checkIn')}</button>
            <button type="button" className="secondary" aria-expanded={scanning} onClick={() => setScanning((s) => !s)}>
              {scanning ? t('stopScan') : t('scanQr')}
            </button>
          </div>
        </form>
        {scanning && (
          <Suspense fallback={<p role="status" className="loading">{t('cameraStarting')}</p>}>
            <QrScanner onCode={scanned} onFailed={(detail) => { setScanning(false); setAnswer({ kind: 'error', text: t('cameraFailed', { detail }) }); }} />
          </Suspense>
        )}
      </div>
      {answer && <Notice kind={answer.kind}>{answer.text}</Notice>}
    </section>
  );
}
