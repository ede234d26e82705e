// Shapes of the Slots API (camelCase JSON).

export type Language = 'sk' | 'en';

export interface Place {
  id: number;
  name: string;
  address: string;
  region: string;
  timeZone: string;
  active: boolean;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface Slot {
  time: string;
  minutes: number;
  capacity: number;
  free: number;
}

export interface Availability {
  placeId: number;
  timeZone: string;
  from: string;
  to: string;
  days: { day: string; slots: Slot[] }[];
}

export interface SlotRef {
  placeId: number;
  day: string;
  time: string;
}

export interface Person {
  name: string;
  phone: string;
  nationalId: string;
}

export interface Reservation extends SlotRef {
  code: string;
  placeName: string;
  address: string;
  minutes: number;
  name: string;
}

export interface Alternative extends SlotRef {
  free: number;
}

/** RFC 9457 problem details with the API's extensions. */
export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  code?: string;
  errors?: Record<string, string[]>;
  alternatives?: Alternative[];
  existingCode?: string;
}

/** How a person proves a reservation is theirs: one of the two, sent in a header. */
export type Proof = { kind: 'phone' | 'nationalId'; value: string };

export interface SlotTemplate {
  firstStart: string;
  lastStart: string;
  intervalMinutes: number;
  lengthMinutes: number;
}

export interface GenerateSlots {
  placeIds: number[];
  from: string;
  to: string;
  template: SlotTemplate;
  capacity: number;
  dryRun: boolean;
}

export interface GenerateResult {
  places: number;
  slotsCreated: number;
  slotsExisting: number;
  seatsCreated: number;
  dryRun: boolean;
}

export interface NewPlace {
  name: string;
  address: string;
  region: string;
  timeZone: string;
  active: boolean;
}

export interface DemoDataRequest {
  places: number;
  days: number;
  capacity: number;
  seed?: number;
}

export interface DemoDataResult {
  placesCreated: number;
  slotsCreated: number;
  seatsCreated: number;
}

export interface DayStats {
  day: string;
  slots: number;
  seats: number;
  freeSeats: number;
  reservations: number;
}

export interface Stats {
  from: string;
  to: string;
  days: DayStats[];
}
