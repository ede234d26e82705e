import { ApiError, query, readJson, readProblem } from './http';
import type {
  AdminService, CapacityResult, ClosePlace, ClosePlaceResult, DemoDataRequest, DemoDataResult, GenerateResult, GenerateSlots, InvitationBatch,
  NewInvitationBatch, NewOpening, NewPlace, NewService, Offer, Place, PlaceEdit, ReopenPlaceResult, ServiceEdit, SetCapacity, SetEligibility, ServiceOffer, StaffOpening, Stats,
} from './types';

/** The admin endpoints, with the signed-in person's bearer token from the site's OpenID provider. */
export class AdminApi {
  private readonly base: string;
  private readonly token: string;

  constructor(base: string, token: string) {
    this.base = base.replace(/\/$/, '');
    this.token = token;
  }

  async createPlace(place: NewPlace): Promise<Place> {
    return readJson(await this.post('/api/admin/places', place));
  }

  /** A place as its public page shows it (opening hours, closed or not, the services it offers). */
  async place(id: number): Promise<Place> {
    // Revalidated: an admin reads it again right after changing it.
    return readJson(await fetch(`${this.base}/api/places/${id}`, { cache: 'no-cache' }));
  }

  async editPlace(id: number, edit: PlaceEdit): Promise<Place> {
    return readJson(await this.send('PUT', `/api/admin/places/${id}`, edit));
  }

  /** Closes the place to new bookings from today on, keeping its bookings or cancelling each with an SMS. */
  async closePlace(id: number, close: ClosePlace): Promise<ClosePlaceResult> {
    return readJson(await this.post(`/api/admin/places/${id}/close`, close));
  }

  async reopenPlace(id: number): Promise<ReopenPlaceResult> {
    return readJson(await fetch(`${this.base}/api/admin/places/${id}/reopen`, { method: 'POST', headers: this.auth() }));
  }

  /** Adds or cuts seats of published slots; a cut below what is booked fails as capacity-below-booked, naming the bookings. */
  async setCapacity(id: number, change: SetCapacity): Promise<CapacityResult> {
    return readJson(await this.post(`/api/admin/places/${id}/capacity`, change));
  }

  async generateSlots(request: GenerateSlots): Promise<GenerateResult> {
    return readJson(await this.post('/api/admin/slots/generate', request));
  }

  async demoData(request: DemoDataRequest): Promise<DemoDataResult> {
    return readJson(await this.post('/api/admin/demo-data', request));
  }

  /** Announces an opening: from then on, booking its places goes through its waiting room. */
  async createOpening(opening: NewOpening): Promise<StaffOpening> {
    return readJson(await this.post('/api/admin/openings', opening));
  }

  async openings(): Promise<StaffOpening[]> {
    return readJson(await fetch(`${this.base}/api/admin/openings`, { headers: this.auth() }));
  }

  /** Ends the waiting room: its places are booked directly again. */
  async closeOpening(id: number): Promise<StaffOpening> {
    return readJson(await this.post(`/api/admin/openings/${id}/close`, {}));
  }

  /** Every service's counts, or one service's when its code is given. */
  async stats(from: string, to: string, service?: string): Promise<Stats> {
    return readJson(await fetch(`${this.base}/api/admin/stats${query({ from, to, service })}`, { headers: this.auth() }));
  }

  /** Every service of the catalogue, active or not, as stored now (viewers may read it too, for the statistics' filter). */
  async services(): Promise<AdminService[]> {
    return readJson(await fetch(`${this.base}/api/admin/services`, { headers: this.auth(), cache: 'no-store' }));
  }

  /** What the place offers, offered or stopped, with the seats and template stored for each service. */
  async offers(placeId: number): Promise<Offer[]> {
    return readJson(await fetch(`${this.base}/api/admin/places/${placeId}/services`, { headers: this.auth(), cache: 'no-store' }));
  }

  async createService(service: NewService): Promise<AdminService> {
    return readJson(await this.post('/api/admin/services', service));
  }

  async editService(code: string, edit: ServiceEdit): Promise<AdminService> {
    return readJson(await this.send('PUT', `/api/admin/services/${encodeURIComponent(code)}`, edit));
  }

  /** Says who may book the service: everyone, or by age from dated steps (replacing those stored). */
  async setEligibility(code: string, eligibility: SetEligibility): Promise<AdminService> {
    return readJson(await this.send('PUT', `/api/admin/services/${encodeURIComponent(code)}/eligibility`, eligibility));
  }

  /** Sets what the place offers of the service: seats, template, and whether it is offered at all. */
  async offerService(placeId: number, code: string, offer: ServiceOffer): Promise<Offer> {
    return readJson(await this.send('PUT', `/api/admin/places/${placeId}/services/${encodeURIComponent(code)}`, offer));
  }

  /**
   * Issues a batch of invitation codes for the service. The answer is a CSV of the codes (UTF-8 with a
   * byte-order mark, kept byte for byte): the only time they exist in plain, so it must be saved now.
   */
  async issueInvitations(code: string, batch: NewInvitationBatch): Promise<{ csv: Blob; disposition: string | null }> {
    const response = await this.post(`/api/admin/services/${encodeURIComponent(code)}/invitations`, batch);
    if (!response.ok) throw new ApiError(await readProblem(response));
    return { csv: new Blob([await response.arrayBuffer()], { type: 'text/csv;charset=utf-8' }), disposition: response.headers.get('Content-Disposition') };
  }

  /** The service's batches of invitation codes, newest first: sizes and spent counts, never the codes (viewers may read them). */
  async invitationBatches(service: string): Promise<InvitationBatch[]> {
    return readJson(await fetch(`${this.base}/api/admin/invitations${query({ service })}`, { headers: this.auth(), cache: 'no-store' }));
  }

  /** No code of the batch admits anybody from now on; bookings already made stand. */
  async revokeInvitations(id: number): Promise<InvitationBatch> {
    return readJson(await fetch(`${this.base}/api/admin/invitations/${id}/revoke`, { method: 'POST', headers: this.auth() }));
  }

  private post(path: string, body: unknown): Promise<Response> {
    return this.send('POST', path, body);
  }

  private send(method: 'POST' | 'PUT', path: string, body: unknown): Promise<Response> {
    return fetch(`${this.base}${path}`, {
      method,
      headers: { ...this.auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  private auth(): Record<string, string> {
    return { Authorization: `Bearer ${this.token}` };
  }
}
