import { type FormEvent, useEffect, useState } from 'react';
import type { StaffApi } from '../api/staffApi';
import { useStaffI18n } from './staffTexts';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { useLoad } from '../ui/useLoad';
import { AuditCard } from './AuditCard';
import { BlockCancelCard } from './BlockCancelCard';
import { CheckInCard } from './CheckInCard';
import { RosterCard } from './RosterCard';
import { WalkInCard } from './WalkInCard';
import { isManager, isSignedOut, roleName, staffError } from './staffMessages';

/** The signed-in member's desk: their place, the door, booking for a walk-in and the day's roster (for managers also cancelling a block and the audit). */
export function StaffDesk({ api, onSignOut }: { api: StaffApi; onSignOut: (message?: string) => void }) {
  const { t } = useStaffI18n();
  const me = useLoad(() => api.me(), [api]);
  const [place, setPlace] = useState<number | null>(null);
  const [typed, setTyped] = useState('');
  // Each check-in, walk-in or cancelled block here: the roster and the audit are read again at once.
  const [changes, setChanges] = useState(0);
  const changed = () => setChanges((n) => n + 1);

  // A token that no longer holds (expired, another provider) sends the member back to sign in.
  const signedOut = () => onSignOut(t('tokenRejected'));
  useEffect(() => {
    if (me.error && isSignedOut(me.error)) signedOut();
  }, [me.error]);
  useEffect(() => {
    if (me.data && me.data.role !== 'admin' && me.data.places.length === 1) setPlace(me.data.places[0]);
  }, [me.data]);

  if (me.error) {
    return (
      <Notice kind="error">
        {staffError(me.error, t)} <button type="button" className="link" onClick={me.reload}>{t('retry')}</button>
      </Notice>
    );
  }
  if (!me.data) return <p role="status" className="loading">{t('loading')}</p>;
  const { subject, role, places } = me.data;

  const openTyped = (e: FormEvent) => {
    e.preventDefault();
    const id = Number(typed);
    if (Number.isInteger(id) && id > 0) setPlace(id);
  };

  return (
    <>
      <div className="staff-bar">
        <p>{t('signedInAs', { subject, role: roleName(role, t) })}</p>
        <button type="button" className="secondary" onClick={() => onSignOut()}>{t('signOut')}</button>
      </div>
      {role === 'admin' ? (
        <form className="row" onSubmit={openTyped} noValidate>
          <Field label={t('staffPlaceId')} inputMode="numeric" value={typed} onChange={setTyped} hint={t('staffPlaceIdHint')} />
          <button type="submit" className="primary" disabled={!/^\d+$/.test(typed)}>{t('openPlace')}</button>
        </form>
      ) : places.length === 0 ? (
        <p>{t('noStaffPlaces')}</p>
      ) : places.length > 1 && (
        <div className="field place-choice">
          <label htmlFor="staff-place">{t('staffPlace')}</label>
          <select id="staff-place" value={place ?? ''} onChange={(e) => setPlace(e.target.value ? Number(e.target.value) : null)}>
            <option value="">—</option>
            {places.map((id) => <option key={id} value={id}>{t('placeNumber', { id })}</option>)}
          </select>
        </div>
      )}
      {place !== null && (
        <div className="cards" key={place}>
          <h2 className="place-title">{t('placeNumber', { id: place })}</h2>
          <CheckInCard api={api} placeId={place} onCheckedIn={changed} onSignedOut={signedOut} />
          <WalkInCard api={api} placeId={place} onBooked={changed} onSignedOut={signedOut} />
          <RosterCard api={api} placeId={place} refresh={changes} manager={isManager(role)} onSignedOut={signedOut} />
          {isManager(role) && <BlockCancelCard api={api} placeId={place} onCancelled={changed} onSignedOut={signedOut} />}
          {isManager(role) && <AuditCard api={api} placeId={place} refresh={changes} />}
        </div>
      )}
    </>
  );
}
