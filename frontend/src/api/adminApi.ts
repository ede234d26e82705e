import { query, readJson } from './http';
import type {
  DemoDataRequest, DemoDataResult, GenerateResult, GenerateSlots, NewOpening, NewPlace, Place, StaffOpening, Stats,
} from './types';

/** Staff endpoints; the key identifies the staff member and travels only in X-Api-Key. */
export class AdminApi {
  private readonly base: string;
  private readonly key: string;

  constructor(base: string, key: string) {
    this.base = base.replace(/\/$/, '');
    this.key = key;
  }

  async createPlace(place: NewPlace): Promise<Place> {
    return readJson(await this.post('/api/admin/places', place));
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
    return readJson(await fetch(`${this.base}/api/admin/openings`, { headers: { 'X-Api-Key': this.key } }));
  }

  /** Ends the waiting room: its places are booked directly again. */
  async closeOpening(id: number): Promise<StaffOpening> {
    return readJson(await this.post(`/api/admin/openings/${id}/close`, {}));
  }

  async stats(from: string, to: string): Promise<Stats> {
    return readJson(await fetch(`${this.base}/api/admin/stats${query({ from, to })}`, { headers: { 'X-Api-Key': this.key } }));
  }

  private post(path: string, body: unknown): Promise<Response> {
    return fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': this.key },
      body: JSON.stringify(body),
    });
  }
}
