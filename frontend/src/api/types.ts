// Shapes of the Slots API (camelCase JSON). What the API answers comes from schema.d.ts, which
// `npm run build` generates from openapi.json (the API's OpenAPI document, kept equal to what the
// API serves by tests/Slots.Api.Tests OpenApiContractTests): a change on either side fails the build.
import type { components } from './schema';

type Schemas = components['schemas'];

export type Language = 'sk' | 'en';

export type Place = Schemas['PlaceDto'];

/** What the privacy page states from the server's settings: retention in days, and whom to ask. */
export type Privacy = Schemas['PrivacyDto'];

export type Page<T> = Omit<Schemas['PageDtoOfPlaceDto'], 'items'> & { items: T[] };

export type Slot = Schemas['SlotDto'];

export type Availability = Schemas['AvailabilityDto'];

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

export type Reservation = Schemas['ReservationDto'];

/** A two-dose booking's second appointment, at the same place (the reservation's secondDose; absent for one appointment). */
export type SecondDose = Schemas['SecondDoseDto'];

/** A move: the new slot, and which appointment moves (2: a pair's second dose; left out: the booking itself). */
export interface Move extends SlotRef {
  dose?: 2;
}

export type PersonalData = Schemas['PersonalDataDto'];

/** A place in a place's waiting list; the offer, while a seat is held for it (the document omits its null). */
export type WaitingListOffer = Schemas['WaitingListOfferDto'];
export type WaitingListState = Schemas['WaitingListEntryDto']['state'];
export type WaitingListEntry = Omit<Schemas['WaitingListEntryDto'], 'offer'> & { offer: WaitingListOffer | null };

/** Joining a place's waiting list for the days one could come (to at most 30 days after from). */
export interface JoinWaitingList extends Person {
  placeId: number;
  from: string;
  to: string;
  language: Language;
  /** The service waited for: needed where the place offers several, left out where it offers one. */
  service?: string;
}

/** An opening as people see it: the places whose booking goes through its waiting room. */
export type Opening = Schemas['PublicOpeningDto'];

/** Where a waiting-room token stands. */
export type RoomState = 'waiting' | 'admitted' | 'no-seats-left' | 'closed' | 'expired';
export type RoomStatus = Omit<Schemas['RoomStatusDto'], 'state'> & { state: RoomState };

/** A join's answer: the signed token (no personal data in it) and where it stands. */
export interface RoomJoin {
  token: string;
  status: RoomStatus;
}

export type Alternative = NonNullable<Schemas['Problem']['alternatives']>[number];

/** A problem code the API (or HAProxy in front of it) answers. */
export type ProblemCode = Schemas['Problem']['code'];

/**
 * RFC 9457 problem details with the API's extensions. Every member but the status may be missing:
 * an answer that is not the API's own (a proxy's error page, a cut connection) still becomes one.
 */
export type Problem = Partial<Schemas['Problem']> & { status: number };

/** How a person proves a reservation is theirs: one of the two, sent in a header. */
export type Proof = { kind: 'phone' | 'nationalId'; value: string };

export interface SlotTemplate {
  firstStart: string;
  lastStart: string;
  intervalMinutes: number;
  lengthMinutes: number;
}

/** Template and capacity left out: each place's stored offer of the service gives them; service left out: default. */
export interface GenerateSlots {
  placeIds: number[];
  from: string;
  to: string;
  template?: SlotTemplate;
  capacity?: number;
  dryRun: boolean;
  service?: string;
}

export type GenerateResult = Schemas['GenerateSlotsDto'];

export interface NewPlace {
  name: string;
  address: string;
  region: string;
  timeZone: string;
  active: boolean;
}

/** What an admin sets on a place: every field (openingHours left out clears it). */
export interface PlaceEdit {
  name: string;
  address: string;
  region: string;
  openingHours?: string;
}

export interface ClosePlace {
  reason: string;
  keepBookings: boolean;
}

export type ClosePlaceResult = Schemas['ClosePlaceDto'];

export type ReopenPlaceResult = Schemas['ReopenPlaceDto'];

/** The seats every slot of a place's service gets from `from` to `to` (or only those starting at `time`). */
export interface SetCapacity {
  service?: string;
  from: string;
  to: string;
  time?: string;
  seats: number;
}

export type CapacityResult = Schemas['CapacityDto'];

/**
 * Who may book a service, as an admin sets it: everyone, by age with dated steps (opensAt with its
 * offset), where acceptsInvitations lets a code admit before one's step, or holders of a code only.
 */
export interface SetEligibility {
  rule: 'everyone' | 'age' | 'invitation';
  steps?: { opensAt: string; bornOnOrBefore: string }[];
  acceptsInvitations?: boolean;
}

/** A batch of invitation codes as admins see it: how many it holds and spent, never the codes. */
export type InvitationBatch = Schemas['InvitationBatchDto'];

/** A new batch of invitation codes: what it is for, and how many. */
export interface NewInvitationBatch {
  label: string;
  size: number;
}

/** A booking that stands in the way of a cut (the capacity-below-booked problem's `bookings`). */
export type BookingInTheWay = NonNullable<Schemas['Problem']['bookings']>[number];

export interface DemoDataRequest {
  places: number;
  days: number;
  capacity: number;
  seed?: number;
}

export type DemoDataResult = Schemas['DemoDataDto'];

export type DayStats = Schemas['DayStatsDto'];

/** An opening for staff: its settings and counters. */
export type StaffOpening = Schemas['OpeningDto'];

export interface NewOpening {
  region?: string;
  placeIds?: number[];
  opensAt: string;
  admitPerSecond?: number;
  admissionSeconds?: number;
}

export type Stats = Schemas['StatsDto'];

/** An active service of the catalogue, as GET /api/services lists it. */
export type Service = Schemas['ServiceDto'];

/** A service as admins see it, active or not (the answer of a create or a change). */
export type AdminService = Schemas['AdminServiceDto'];

export interface DoseInterval {
  minDays: number;
  maxDays: number;
}

export interface NewService {
  code: string;
  nameSk: string;
  nameEn: string;
  secondDose?: DoseInterval;
  active: boolean;
}

/** A service as it is to be: every field (secondDose left out makes it one appointment). */
export interface ServiceEdit {
  nameSk: string;
  nameEn: string;
  secondDose?: DoseInterval;
  active: boolean;
}

/** What a place offers of a service, as it is to be (seats or template left out: none stored). */
export interface ServiceOffer {
  seats?: number;
  template?: SlotTemplate;
  active: boolean;
}

export type Offer = Schemas['OfferDto'];

// What the page sends must be what the API reads: each request shape is checked against the document's.
type Fits<T extends U, U> = T;
export type RequestsFitTheContract = [
  Fits<NewPlace, Schemas['CreatePlaceRequest']>,
  Fits<PlaceEdit, Schemas['EditPlaceRequest']>,
  Fits<ClosePlace, Schemas['ClosePlaceRequest']>,
  Fits<SetCapacity, Schemas['SetCapacityRequest']>,
  Fits<SetEligibility, Schemas['SetEligibilityRequest']>,
  Fits<NewInvitationBatch, Schemas['CreateInvitationBatchRequest']>,
  Fits<GenerateSlots, Schemas['GenerateSlotsRequest']>,
  Fits<DemoDataRequest, Schemas['DemoDataBody']>,
  Fits<SlotRef & Person & { language: Language; service?: string; invitation?: string; secondDay?: string; secondTime?: string },
    Schemas['ReserveRequest']>,
  Fits<Move, Schemas['RescheduleRequest']>,
  Fits<{ nationalId: string }, Schemas['JoinRequest']>,
  Fits<JoinWaitingList, Schemas['JoinWaitingListRequest']>,
  Fits<NewOpening, Schemas['CreateOpeningRequest']>,
  Fits<CancelBlockRequest, Schemas['CancelBlockRequest']>,
  Fits<WalkInRequest, Schemas['WalkInRequest']>,
  Fits<NewService, Schemas['CreateServiceRequest']>,
  Fits<ServiceEdit, Schemas['EditServiceRequest']>,
  Fits<ServiceOffer, Schemas['OfferServiceRequest']>,
];

// And the document's required fields are required here: a booking or a move lacking one does not
// compile (a field the document made optional again would fail the build at its IsRequired).
type IsRequired<T, K extends keyof T> = Omit<T, K> extends T ? false : true;
type Holds<T extends true> = T;
export type RequiredFieldsAreRequired = [
  Holds<IsRequired<Schemas['ReserveRequest'], 'placeId'>>,
  Holds<IsRequired<Schemas['ReserveRequest'], 'day'>>,
  Holds<IsRequired<Schemas['ReserveRequest'], 'time'>>,
  Holds<IsRequired<Schemas['ReserveRequest'], 'name'>>,
  Holds<IsRequired<Schemas['ReserveRequest'], 'phone'>>,
  Holds<IsRequired<Schemas['ReserveRequest'], 'nationalId'>>,
  Holds<IsRequired<Schemas['RescheduleRequest'], 'placeId'>>,
  Holds<IsRequired<Schemas['RescheduleRequest'], 'day'>>,
  Holds<IsRequired<Schemas['RescheduleRequest'], 'time'>>,
  Holds<IsRequired<Schemas['JoinWaitingListRequest'], 'from'>>,
  Holds<IsRequired<Schemas['JoinWaitingListRequest'], 'to'>>,
  Holds<IsRequired<Schemas['WalkInRequest'], 'time'>>,
  Holds<IsRequired<Schemas['WalkInRequest'], 'name'>>,
  Holds<IsRequired<Schemas['WalkInRequest'], 'phone'>>,
  Holds<IsRequired<Schemas['WalkInRequest'], 'nationalId'>>,
];

/** Who a staff token signs in: its subject, highest role and places (empty for admin: every place). */
export type StaffMe = Schemas['StaffMeDto'];
export type StaffRole = StaffMe['role'];

export type Roster = Schemas['RosterDto'];
export type RosterRow = Schemas['RosterRowDto'];
export type RosterState = RosterRow['state'];
export type RosterCounts = Schemas['RosterCountsDto'];

/** The door's answer: checked in now, or (alreadyCheckedIn) when and by whom it was the first time. */
export type CheckIn = Schemas['CheckInDto'];
export type CheckInRequest = Schemas['CheckInRequest'];

export type AuditEntry = Schemas['AuditEntryDto'];

/** A site's cancel of a day or a time range ([from, to): to is exclusive, 24:00 the day's end). */
export interface CancelBlockRequest {
  day: string;
  from?: string;
  to?: string;
  reason: string;
}

/** The block as it stands: how many bookings it cancelled and kept (checked in); created false when asked before. */
export type BlockCancel = Schemas['BlockCancelDto'];

/** A booking staff make for a person at the door or on the phone; day left out: today at the place. */
export interface WalkInRequest extends Person {
  day?: string;
  time: string;
  language: Language;
  /** Left out at a place with one service, which the API then books. */
  service?: string;
  invitation?: string;
  /** Whether the confirmation SMS goes to the person. */
  sms: boolean;
  /** Check the person in at once: they are at the door. */
  checkIn: boolean;
}

/** How the check-in asked for with a walk-in went; the booking stands whatever it says. */
export type WalkInCheckIn = 'checked-in' | 'too-early' | 'too-late' | 'other-day';

/** The walk-in's answer: the booking, whether its SMS went, and the check-in's outcome where one was asked for. */
export type WalkIn = Omit<Schemas['WalkInDto'], 'checkIn'> & { checkIn?: WalkInCheckIn | null };
