import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/http';
import type { StaffApi } from '../api/staffApi';
import type { BlockCancel } from '../api/types';
import { formatDay } from '../booking/dates';
import { Notice } from '../ui/Notice';
import { staffError } from './staffMessages';
import { useStaffI18n } from './staffTexts';

interface StandingBlocksProps {
  api: StaffApi;
  placeId: number;
  /** Changes whenever a block was cancelled here, so the list is read again. */
  version: number;
  /** After a block is opened again, so the roster and the audit are read again. */
  onReopened: () => void;
  onSignedOut: () => void;
}

/**
 * The place's cancelled blocks from today on, each with "open again": its times take bookings
 * again at once, and the bookings it cancelled stay cancelled (their people were told).
 */
export function StandingBlocks({ api, placeId, version, onReopened, onSignedOut }: StandingBlocksProps) {
  const { t, lang } = useStaffI18n();
  const [blocks, setBlocks] = useState<BlockCancel[] | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [notice, setNotice] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.problem.status === 401) return onSignedOut();
    setNotice({ kind: 'error', text: staffError(error, t) });
  };
  // The list is read when the place or a cancel changes it, not when the page around it renders again.
  const failedLatest = useRef(failed);
  failedLatest.current = failed;

  useEffect(() => {
    let current = true;
    api.standingBlocks(placeId).then((found) => current && setBlocks(found), (error: unknown) => current && failedLatest.current(error));
    return () => {
      current = false;
    };
  }, [api, placeId, version]);

  const reopen = async (block: BlockCancel) => {
    setBusy(block.id);
    setNotice(null);
    try {
      await api.reopenBlock(placeId, block.id);
      setBlocks((list) => list?.filter((b) => b.id !== block.id) ?? null);
      setNotice({ kind: 'success', text: t('blockReopened', { day: formatDay(block.day, lang, true), from: block.from, to: block.to }) });
      onReopened();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(null);
    }
  };

  if (blocks === null && notice === null) return null;
  return (
    <div className="standing-blocks">
      <h3>{t('blockStandingTitle')}</h3>
      {blocks?.length === 0 && <p>{t('blockStandingNone')}</p>}
      {blocks && blocks.length > 0 && (
        <ul>
          {blocks.map((b) => (
            <li key={b.id} data-testid="standing-block" data-block={b.id}>
              <span>{t('blockStandingItem', { day: formatDay(b.day, lang, true), from: b.from, to: b.to, reason: b.reason, cancelled: b.cancelled })}</span>{' '}
              <button type="button" className="secondary" disabled={busy !== null} aria-busy={busy === b.id} onClick={() => void reopen(b)}>
                {t('blockReopen')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
    </div>
  );
}
