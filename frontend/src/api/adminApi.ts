import { query, readJson } from './http';
import type {
  ClosePlace, ClosePlaceResult, DemoDataRequest, DemoDataResult, GenerateResult, GenerateSlots, NewOpening, NewPlace, Place, PlaceEdit,
  ReopenPlaceResult, StaffOpening, Stats,
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

  /** A place as its public page shows it (opening hours, closed or not). */
  async place(id: number): Promise<Place> {
    return readJson(await fetch(`${this.base}/api/places/${id}`));
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

  async stats(from: string, to: string): Promise<Stats> {
    return readJson(await fetch(`${this.base}/api/admin/stats${query({ from, to })}`, { headers: this.auth() }));
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
