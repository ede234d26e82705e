import { useState } from 'react';
import { api } from '../api/slotsApi';
import type { Proof, Reservation } from '../api/types';
import { useI18n } from '../i18n/I18n';
import { Notice } from '../ui/Notice';
import { StepHeading } from '../ui/StepHeading';
import { LookupForm } from './LookupForm';
import { PersonalDataView } from './PersonalDataView';
import { type LookupFailure, lookupFailure, lookupFailureText } from './lookupFailure';
import { ReservationView } from './ReservationView';

/**
 * Look a reservation up by code and proof, then cancel or move it. A reminder's link (#/manage/CODE)
 * fills the code in; nothing is looked up until the person gives the proof and submits.
 */
export function ManagePage({ code }: { code?: string }) {
  const { t } = useI18n();
  const [found, setFound] = useState<{ reservation: Reservation; proof: Proof } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<LookupFailure | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The code and proof of the last look-up: a cancelled booking's owner may still see and erase their data.
  const [asked, setAsked] = useState<{ code: string; proof: Proof } | null>(null);
  const [showData, setShowData] = useState(false);

  const find = async (code: string, proof: Proof) => {
    setBusy(true);
    setFailure(null);
    setDone(null);
    setAsked({ code, proof });
    try {
      setFound({ reservation: await api.find(code, proof), proof });
    } catch (e) {
      setFailure(lookupFailure(e, code));
    } finally {
      setBusy(false);
    }
  };

  if (showData && asked) {
    return (
      <PersonalDataView
        code={asked.code}
        proof={asked.proof}
        onBack={() => setShowData(false)}
        onErased={(message) => {
          setShowData(false);
          setFailure(null);
          setDone(message);
        }}
      />
    );
  }

  if (found) {
    return (
      <ReservationView
        reservation={found.reservation}
        proof={found.proof}
        onChanged={(reservation) => setFound({ reservation, proof: found.proof })}
        onGone={(message) => {
          setFound(null);
          setDone(message);
        }}
      />
    );
  }

  return (
    <section>
      <StepHeading>{t('manageTitle')}</StepHeading>
      <p>{t('manageLead')}</p>
      {done && <Notice kind="success">{done}</Notice>}
      {failure?.kind === 'cancelled' && (
        <Notice kind="info">
          {lookupFailureText(failure, t)} <a href="#/">{t('bookAgain')}</a>{' '}
          <button type="button" className="link" onClick={() => setShowData(true)}>{t('yourData')}</button>
        </Notice>
      )}
      {failure && failure.kind !== 'cancelled' && <Notice kind="error">{lookupFailureText(failure, t)}</Notice>}
      <LookupForm busy={busy} onFind={find} initialCode={code} />
    </section>
  );
}
