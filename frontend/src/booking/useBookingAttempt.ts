import { useCallback, useEffect, useRef, useState } from 'react';
import type { Wait } from '../api/retry';
import { api, type Booking, type WriteOutcome } from '../api/slotsApi';
import type { Reservation } from '../api/types';

export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; plain-HTTP test setups still get 128 random bits.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One booking attempt: an Idempotency-Key made once per distinct booking and reused for every
 * retry and for a repeated confirm of the same details, so nothing can book twice.
 */
export function useBookingAttempt() {
  const attempt = useRef<{ booking: string; key: string } | null>(null);
  const controller = useRef<AbortController | null>(null);
  const [inFlight, setInFlight] = useState(false);
  const [wait, setWait] = useState<Wait | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const submit = useCallback(async (booking: Booking, roomToken?: string): Promise<WriteOutcome<Reservation>> => {
    // A new turn from the waiting room is a new attempt: the refused one wrote nothing.
    const fingerprint = JSON.stringify([booking, roomToken ?? null]);
    if (attempt.current?.booking !== fingerprint) attempt.current = { booking: fingerprint, key: newIdempotencyKey() };
    controller.current = new AbortController();
    setInFlight(true);
    try {
      return await api.reserve(booking, attempt.current.key, { signal: controller.current.signal, onWait: setWait }, roomToken);
    } finally {
      setInFlight(false);
      setWait(null);
    }
  }, []);

  const stop = useCallback(() => controller.current?.abort(), []);

  return { submit, stop, inFlight, wait };
}
