import { placesPageSize } from './firstPlaces';
import { ApiError, query, readJson, readProblem } from './http';
import { type Clock, type RetryPolicy, type Wait, type WaitReason, parseRetryAfter, sendWithRetry } from './retry';
import type {
  Availability, JoinWaitingList, Language, Move, Opening, Page, PersonalData, Person, Place, Privacy, Problem, Proof, Reservation, RoomJoin, RoomStatus,
  Service, SlotRef, WaitingListEntry,
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
  /** The service's code; left out at a place with one service, which the API then books. */
  service?: string;
  /** The invitation code as typed, where the service takes codes and the person gave one. */
  invitation?: string;
  /** A two-dose service's second appointment on a day the person chose (with secondTime); left out: the earliest free. */
  secondDay?: string;
  secondTime?: string;
}

function proofHeaders(proof: Proof): Record<string, string> {
  // Never in the URL: proxies and browsers log URLs.
  return proof.kind === 'phone' ? { 'Slots-Phone': proof.value } : { 'Slots-National-Id': proof.value };
}

const json = { 'Content-Type': 'application/json' };

/** The header a waiting-room token travels in (never the URL). */
export const roomTokenHeader = 'Waiting-Room-Token';

/** The header a waiting-list entry's token travels in (never the URL path). */
export const waitingListTokenHeader = 'Slots-Waiting-List-Token';

/**
 * How far the server's clock (its Date header) is ahead of this one, so a deadline it names counts
 * down right on a device whose clock is off. Date has whole seconds: under two seconds counts as none.
 */
function serverAheadMs(response: Response): number {
  const serverNow = Date.parse(response.headers.get('Date') ?? '');
  const ahead = Number.isNaN(serverNow) ? 0 : serverNow - Date.now();
  return Math.abs(ahead) < 2_000 ? 0 : ahead;
}

/** An entry as the server answered it, and how far its clock is ahead of this one. */
export interface EntryAnswer {
  entry: WaitingListEntry;
  serverAheadMs: number;
}

/** A status answer, when the server asks to be asked again, and how far its clock is ahead of this one. */
export interface RoomAnswer {
  status: RoomStatus;
  askAgainMs: number;
  serverAheadMs: number;
}

/** The public (person-facing) part of the API. */
export class SlotsApi {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(base: string, fetchFn: typeof fetch = (...args) => fetch(...args)) {
    this.base = base.replace(/\/$/, '');
    this.fetchFn = fetchFn;
  }

  /** The retention period and contact the privacy page states: the server's settings, not the page's. */
  privacy(): Promise<Privacy> {
    return this.get('/api/privacy');
  }

  regions(): Promise<string[]> {
    return this.get('/api/places/regions');
  }

  places(region: string, name: string, page = 1): Promise<Page<Place>> {
    return this.get(`/api/places${query({ region, name, page, pageSize: placesPageSize })}`);
  }

  place(id: number): Promise<Place> {
    return this.get(`/api/places/${id}`);
  }

  /** The active services of the catalogue, with each two-dose service's interval (cached by the browser for 30 s). */
  services(): Promise<Service[]> {
    return this.get('/api/services');
  }

  /** Free seats of a place's days; of one service where the place offers several (service: its code). */
  availability(placeId: number, from?: string, to?: string, service?: string): Promise<Availability> {
    return this.get(`/api/places/${placeId}/availability${query({ from, to, service })}`);
  }

  /**
   * Books a seat. Every retry resends the same body with the same key, so it can never book twice.
   * Inside a waiting-room opening the admitted token goes with it.
   */
  reserve(booking: Booking, idempotencyKey: string, hooks: RetryHooks = {}, roomToken?: string): Promise<WriteOutcome<Reservation>> {
    const body = JSON.stringify(booking);
    const headers: Record<string, string> = { ...json, 'Idempotency-Key': idempotencyKey };
    if (roomToken) headers[roomTokenHeader] = roomToken;
    return this.write<Reservation>(true, hooks, (signal) =>
      this.fetchFn(`${this.base}/api/reservations`, { method: 'POST', body, signal, headers }));
  }

  /** Openings that are open now (or closed lately): which places go through a waiting room. */
  openings(): Promise<Opening[]> {
    return this.get('/api/waiting-room/openings');
  }

  /** A place in the opening's line; joining again with the same national id answers the same place. */
  async joinRoom(openingId: number, nationalId: string): Promise<RoomJoin> {
    return readJson(await this.fetchFn(`${this.base}/api/waiting-room/openings/${openingId}/join`, {
      method: 'POST', body: JSON.stringify({ nationalId }), headers: json,
    }));
  }

  /** Where a token stands; throws ApiError (waiting-room-token-invalid, or a busy answer with its Retry-After). */
  async roomStatus(token: string, signal?: AbortSignal): Promise<RoomAnswer> {
    const response = await this.fetchFn(`${this.base}/api/waiting-room/status`, { headers: { [roomTokenHeader]: token }, signal });
    const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'), Date.now());
    if (!response.ok) throw new ApiError(await readProblem(response), retryAfterMs);
    const status = (await response.json()) as RoomStatus;
    // The admission deadline is the server's clock.
    return { status, askAgainMs: retryAfterMs ?? status.askAgainSeconds * 1000, serverAheadMs: serverAheadMs(response) };
  }

  /** Onto the place's waiting list (201: the entry with its token); throws ApiError (seats-free, waiting-list-joined, …). */
  async joinWaitingList(join: JoinWaitingList): Promise<WaitingListEntry> {
    return readJson(await this.fetchFn(`${this.base}/api/waiting-list`, { method: 'POST', body: JSON.stringify(join), headers: json }));
  }

  /** Where the entry stands; throws ApiError (waiting-list-entry-not-found). */
  async waitingListEntry(token: string, signal?: AbortSignal): Promise<EntryAnswer> {
    const response = await this.fetchFn(`${this.base}/api/waiting-list/entry`, { headers: { [waitingListTokenHeader]: token }, signal });
    const entry = await readJson<WaitingListEntry>(response);
    return { entry, serverAheadMs: serverAheadMs(response) };
  }

  /** Off the waiting list; a seat held for the entry goes to the next in line. */
  async leaveWaitingList(token: string): Promise<void> {
    const response = await this.fetchFn(`${this.base}/api/waiting-list/entry`, { method: 'DELETE', headers: { [waitingListTokenHeader]: token } });
    if (!response.ok) throw new ApiError(await readProblem(response));
  }

  /**
   * Books the seat held for the entry; throws ApiError (offer-expired, offer-not-found, already-booked).
   * A claim again answers the same booking, so a lost answer may simply be claimed again.
   */
  async claimOffer(token: string): Promise<Reservation> {
    return readJson(await this.fetchFn(`${this.base}/api/waiting-list/entry/claim`, { method: 'POST', headers: { [waitingListTokenHeader]: token } }));
  }

  async find(code: string, proof: Proof): Promise<Reservation> {
    return readJson(await this.fetchFn(`${this.base}/api/reservations/${encodeURIComponent(code)}`, { headers: proofHeaders(proof) }));
  }

  /** A lost answer is not resent: the person looks the reservation up instead. */
  cancel(code: string, proof: Proof, hooks: RetryHooks = {}): Promise<WriteOutcome<void>> {
    return this.write<void>(false, hooks, (signal) =>
      this.fetchFn(`${this.base}/api/reservations/${encodeURIComponent(code)}`, { method: 'DELETE', signal, headers: proofHeaders(proof) }));
  }

  /** Everything kept about the booking's owner (no-store on the server's side; kept in memory only here). */
  async personalData(code: string, proof: Proof): Promise<PersonalData> {
    return readJson(await this.fetchFn(`${this.base}/api/reservations/${encodeURIComponent(code)}/personal-data`, { headers: proofHeaders(proof) }));
  }

  /** Cancels a booking ahead, then erases the owner's data. A lost answer is not resent: a repeat would find nothing (404). */
  erasePersonalData(code: string, proof: Proof, hooks: RetryHooks = {}): Promise<WriteOutcome<void>> {
    return this.write<void>(false, hooks, (signal) =>
      this.fetchFn(`${this.base}/api/reservations/${encodeURIComponent(code)}/personal-data`, { method: 'DELETE', signal, headers: proofHeaders(proof) }));
  }

  /** Moves the booking, or (dose 2) a pair's second dose; the answer is the whole booking as it stands after. */
  reschedule(code: string, proof: Proof, target: Move, hooks: RetryHooks = {}): Promise<WriteOutcome<Reservation>> {
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
