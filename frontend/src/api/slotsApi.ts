import { query, readJson, readProblem } from './http';
import { type Clock, type RetryPolicy, type Wait, type WaitReason, sendWithRetry } from './retry';
import type {
  Availability, Language, Page, Person, Place, Problem, Proof, Reservation, SlotRef,
} from './types';

export interface RetryHooks {
  signal?: AbortSignal;
  onWait?: (wait: Wait) => void;
  policy?: RetryPolicy;
  clock?: Clock;
}

/** What a write ended in: done, refused with a problem, or not known because the wait ran out. */
export type WriteOutcome<T> =
  | { kind: 'done'; value: T; replayed: boolean }
  | { kind: 'problem'; problem: Problem }
  | { kind: 'gave-up'; reason: WaitReason }
  | { kind: 'aborted' };

export interface Booking extends SlotRef, Person {
  language: Language;
}

function proofHeaders(proof: Proof): Record<string, string> {
  // Never in the URL: proxies and browsers log URLs.
  return proof.kind === 'phone' ? { 'Slots-Phone': proof.value } : { 'Slots-National-Id': proof.value };
}

const json = { 'Content-Type': 'application/json' };

/** The public (person-facing) part of the API. */
export class SlotsApi {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(base: string, fetchFn: typeof fetch = (...args) => fetch(...args)) {
    this.base = base.replace(/\/$/, '');
    this.fetchFn = fetchFn;
  }

  regions(): Promise<string[]> {
    return this.get('/api/places/regions');
  }

  places(region: string, name: string, page = 1): Promise<Page<Place>> {
    return this.get(`/api/places${query({ region, name, page, pageSize: 20 })}`);
  }

  place(id: number): Promise<Place> {
    return this.get(`/api/places/${id}`);
  }

  availability(placeId: number, from?: string, to?: string): Promise<Availability> {
    return this.get(`/api/places/${placeId}/availability${query({ from, to })}`);
  }

  /** Books a seat. Every retry resends the same body with the same key, so it can never book twice. */
  reserve(booking: Booking, idempotencyKey: string, hooks: RetryHooks = {}): Promise<WriteOutcome<Reservation>> {
    const body = JSON.stringify(booking);
    return this.write<Reservation>(true, hooks, (signal) =>
      this.fetchFn(`${this.base}/api/reservations`, {
        method: 'POST', body, signal, headers: { ...json, 'Idempotency-Key': idempotencyKey },
      }));
  }

  async find(code: string, proof: Proof): Promise<Reservation> {
    return readJson(await this.fetchFn(`${this.base}/api/reservations/${encodeURIComponent(code)}`, { headers: proofHeaders(proof) }));
  }

  /** A lost answer is not resent: the person looks the reservation up instead. */
  cancel(code: string, proof: Proof, hooks: RetryHooks = {}): Promise<WriteOutcome<void>> {
    return this.write<void>(false, hooks, (signal) =>
      this.fetchFn(`${this.base}/api/reservations/${encodeURIComponent(code)}`, { method: 'DELETE', signal, headers: proofHeaders(proof) }));
  }

  reschedule(code: string, proof: Proof, target: SlotRef, hooks: RetryHooks = {}): Promise<WriteOutcome<Reservation>> {
    const body = JSON.stringify(target);
    return this.write<Reservation>(false, hooks, (signal) =>
      this.fetchFn(`${this.base}/api/reservations/${encodeURIComponent(code)}/reschedule`, {
        method: 'POST', body, signal, headers: { ...json, ...proofHeaders(proof) },
      }));
  }

  private async get<T>(path: string): Promise<T> {
    return readJson<T>(await this.fetchFn(`${this.base}${path}`));
  }

  private async write<T>(idempotent: boolean, hooks: RetryHooks, send: (signal: AbortSignal) => Promise<Response>): Promise<WriteOutcome<T>> {
    const result = await sendWithRetry(send, { ...hooks, resendAfterNetworkError: idempotent });
    if (result.kind !== 'response') return result;
    const { response } = result;
    if (!response.ok) return { kind: 'problem', problem: await readProblem(response) };
    const value = (response.status === 204 ? undefined : await response.json()) as T;
    return { kind: 'done', value, replayed: response.headers.get('Idempotent-Replayed') === 'true' };
  }
}

export const apiBase: string = import.meta.env.VITE_API_BASE ?? '';
export const api = new SlotsApi(apiBase);
