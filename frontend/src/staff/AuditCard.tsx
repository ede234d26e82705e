import type { StaffApi } from '../api/staffApi';
import { useStaffI18n } from './staffTexts';
import { Notice } from '../ui/Notice';
import { useLoad } from '../ui/useLoad';
import { staffError } from './staffMessages';

/** What staff did at the place in the last week, newest first (site managers and admins). */
export function AuditCard({ api, placeId, refresh }: { api: StaffApi; placeId: number; refresh: number }) {
  const { t, lang } = useStaffI18n();
  const audit = useLoad(() => api.audit(placeId), [api, placeId, refresh]);
  const when = (iso: string) => new Date(iso).toLocaleString(lang === 'en' ? 'en-GB' : 'sk-SK', { dateStyle: 'short', timeStyle: 'short' });

  return (
    <section className="card" aria-labelledby="audit">
      <h2 id="audit">{t('auditTitle')}</h2>
      {audit.error !== undefined && (
        <Notice kind="error">
          {staffError(audit.error, t)} <button type="button" className="link" onClick={audit.reload}>{t('retry')}</button>
        </Notice>
      )}
      {audit.data && audit.data.length === 0 && <p>{t('noAudit')}</p>}
      {audit.data && audit.data.length > 0 && (
        <div className="table-scroll">
          <table className="audit">
            <thead>
              <tr>
                <th scope="col">{t('auditWhen')}</th>
                <th scope="col">{t('auditWho')}</th>
                <th scope="col">{t('auditAction')}</th>
                <th scope="col">{t('auditTarget')}</th>
                <th scope="col">{t('auditReason')}</th>
              </tr>
            </thead>
            <tbody>
              {audit.data.map((entry) => (
                <tr key={entry.id} data-action={entry.action}>
                  <th scope="row">{when(entry.at)}</th>
                  <td>{entry.actor}</td>
                  <td>{entry.action}</td>
                  <td className="mono">{entry.target ?? ''}</td>
                  <td>{entry.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
