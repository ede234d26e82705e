import { ApiError, query, readJson, readProblem } from './http';
import { sendWithRetry } from './retry';
import type { RetryHooks, WriteOutcome } from './slotsApi';
import type { AuditEntry, BlockCancel, CancelBlockRequest, CheckIn, CheckInRequest, Roster, RosterState, StaffMe, WalkIn, WalkInRequest } from './types';

/** What the roster screen asks for: the place's day, optionally narrowed, a page at a time. */
export interface RosterQuery {
  day?: string;
  from?: string;
  to?: string;
  state?: RosterState;
  code?: string;
  page?: number;
  pageSize?: number;
}

/**
 * The roster's query string. Blank filters are left out, a code is sent as people read it off a
 * ticket (trimmed, upper case), and page 1 and the server's page size are the defaults.
 */
export function rosterQuery(q: RosterQuery): string {
  const code = q.code?.trim().toUpperCase();
  return query({
    day: q.day,
    from: q.from,
    to: q.to,
    state: q.state,
    code: code || undefined,
    page: q.page && q.page > 1 ? q.page : undefined,
    pageSize: q.pageSize,
  });
}

/** The staff endpoints, with the member's bearer token from the site's OpenID provider. */
export class StaffApi {
  private readonly base: string;
  private readonly token: string;
  private readonly fetchFn: typeof fetch;

  constructor(base: string, token: string, fetchFn: typeof fetch = (...args) => fetch(...args)) {
    this.base = base.replace(/\/$/, '');
    this.token = token;
    this.fetchFn = fetchFn;
  }

  async me(): Promise<StaffMe> {
    return readJson(await this.get('/api/staff/me'));
  }

  async roster(placeId: number, q: RosterQuery, signal?: AbortSignal): Promise<Roster> {
    return readJson(await this.get(`/api/staff/places/${placeId}/roster${rosterQuery(q)}`, signal));
  }

  /** The day's roster as CSV; fetched with the token (a plain link could not send it) and saved as a file. */
  async rosterCsv(placeId: number, q: RosterQuery): Promise<Blob> {
    const response = await this.get(`/api/staff/places/${placeId}/roster.csv${rosterQuery({ ...q, page: undefined, pageSize: undefined })}`);
    if (!response.ok) throw new ApiError(await readProblem(response));
    return response.blob();
  }

  async checkIn(placeId: number, request: CheckInRequest): Promise<CheckIn> {
    return readJson(await this.fetchFn(`${this.base}/api/staff/places/${placeId}/check-ins`, {
      method: 'POST',
      headers: { ...this.auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    }));
  }

  /**
   * Books for a person at the door or on the phone. Like the person's own booking it is resent, with
   * the same key and body, while the server is busy or the answer is lost: it can never book twice.
   */
  async walkIn(placeId: number, request: WalkInRequest, idempotencyKey: string, hooks: RetryHooks = {}): Promise<WriteOutcome<WalkIn>> {
    const body = JSON.stringify(request);
    const headers = { ...this.auth(), 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey };
    const result = await sendWithRetry((signal) =>
      this.fetchFn(`${this.base}/api/staff/places/${placeId}/walk-ins`, { method: 'POST', body, signal, headers }), { ...hooks, resendAfterNetworkError: true });
    if (result.kind !== 'response') return result;
    const { response } = result;
    if (!response.ok) return { kind: 'problem', problem: await readProblem(response) };
    return { kind: 'done', value: (await response.json()) as WalkIn, replayed: response.headers.get('Idempotent-Replayed') === 'true' };
  }

  /** Cancels every booking in the block, each person told by SMS; the same block again answers the first. */
  async cancelBlock(placeId: number, request: CancelBlockRequest): Promise<BlockCancel> {
    return readJson(await this.fetchFn(`${this.base}/api/staff/places/${placeId}/block-cancels`, {
      method: 'POST',
      headers: { ...this.auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    }));
  }

  /** The site's cancelled blocks of the place from today on that have not been opened again. */
  async standingBlocks(placeId: number): Promise<BlockCancel[]> {
    return readJson(await this.get(`/api/staff/places/${placeId}/block-cancels`));
  }

  /** Opens a cancelled block again: its slots take bookings; the bookings it cancelled stay cancelled. */
  async reopenBlock(placeId: number, blockId: number): Promise<void> {
    const response = await this.fetchFn(`${this.base}/api/staff/places/${placeId}/block-cancels/${blockId}/reopen`, {
      method: 'POST',
      headers: this.auth(),
    });
    if (!response.ok) throw new ApiError(await readProblem(response));
  }

  async audit(placeId: number, from?: string, to?: string): Promise<AuditEntry[]> {
    return readJson(await this.get(`/api/staff/places/${placeId}/audit${query({ from, to })}`));
  }

  private get(path: string, signal?: AbortSignal): Promise<Response> {
    return this.fetchFn(`${this.base}${path}`, { headers: this.auth(), signal });
  }

  private auth(): Record<string, string> {
    return { Authorization: `Bearer ${this.token}` };
  }
}
