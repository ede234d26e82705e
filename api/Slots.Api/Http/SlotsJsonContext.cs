using System.Text.Json;
using System.Text.Json.Serialization;
using Microsoft.AspNetCore.Mvc;
using Slots.Api.Admin;
using Slots.Api.Admission;
using Slots.Api.Finders;
using Slots.Api.Places;
using Slots.Api.Privacy;
using Slots.Api.Reservations;
using Slots.Api.Staff;
using Slots.Api.WaitingList;

namespace Slots.Api.Http;

// Numbers are numbers: "placeId":"2" is refused naming the field, as the document says (the Web defaults would read it).

/// <summary>Source-generated JSON: no reflection on the hot path.</summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull, NumberHandling = JsonNumberHandling.Strict)]
[JsonSerializable(typeof(ReserveRequest))]
[JsonSerializable(typeof(RescheduleRequest))]
[JsonSerializable(typeof(CreatePlaceRequest))]
[JsonSerializable(typeof(EditPlaceRequest))]
[JsonSerializable(typeof(ClosePlaceRequest))]
[JsonSerializable(typeof(ClosePlaceDto))]
[JsonSerializable(typeof(SetEligibilityRequest))]
[JsonSerializable(typeof(SetCapacityRequest))]
[JsonSerializable(typeof(CapacityDto))]
[JsonSerializable(typeof(List<BookingInTheWayDto>))]
[JsonSerializable(typeof(ReopenPlaceDto))]
[JsonSerializable(typeof(CreateMachineKeyRequest))]
[JsonSerializable(typeof(CreatedMachineKeyDto))]
[JsonSerializable(typeof(MachineKeyDto[]))]
[JsonSerializable(typeof(GenerateSlotsRequest))]
[JsonSerializable(typeof(DemoDataBody))]
[JsonSerializable(typeof(CreateServiceRequest))]
[JsonSerializable(typeof(EditServiceRequest))]
[JsonSerializable(typeof(OfferServiceRequest))]
[JsonSerializable(typeof(AdminServiceDto))]
[JsonSerializable(typeof(CreateInvitationBatchRequest))]
[JsonSerializable(typeof(InvitationBatchDto))]
[JsonSerializable(typeof(IReadOnlyList<InvitationBatchDto>))]
[JsonSerializable(typeof(OfferDto))]
[JsonSerializable(typeof(PlaceDto))]
[JsonSerializable(typeof(ServiceDto[]))]
[JsonSerializable(typeof(PrivacyDto))]
[JsonSerializable(typeof(BulkPublishManifestDto))]
[JsonSerializable(typeof(PageDto<PlaceDto>))]
[JsonSerializable(typeof(AvailabilityDto))]
[JsonSerializable(typeof(ReservationDto))]
[JsonSerializable(typeof(PersonalDataDto))]
[JsonSerializable(typeof(AlternativeDto[]))]
[JsonSerializable(typeof(GenerateSlotsDto))]
[JsonSerializable(typeof(DemoDataDto))]
[JsonSerializable(typeof(StatsDto))]
[JsonSerializable(typeof(JobsDto))]
[JsonSerializable(typeof(JoinRequest))]
[JsonSerializable(typeof(CreateOpeningRequest))]
[JsonSerializable(typeof(RoomStatusDto))]
[JsonSerializable(typeof(JoinDto))]
[JsonSerializable(typeof(PublicOpeningDto[]))]
[JsonSerializable(typeof(OpeningDto))]
[JsonSerializable(typeof(OpeningDto[]))]
[JsonSerializable(typeof(StaffMeDto))]
[JsonSerializable(typeof(RosterDto))]
[JsonSerializable(typeof(CheckInRequest))]
[JsonSerializable(typeof(CheckInDto))]
[JsonSerializable(typeof(WalkInRequest))]
[JsonSerializable(typeof(WalkInDto))]
[JsonSerializable(typeof(CancelBlockRequest))]
[JsonSerializable(typeof(BlockCancelDto))]
[JsonSerializable(typeof(JoinWaitingListRequest))]
[JsonSerializable(typeof(WaitingListEntryDto))]
[JsonSerializable(typeof(AuditEntryDto[]))]
[JsonSerializable(typeof(long))]
[JsonSerializable(typeof(string[]))]
[JsonSerializable(typeof(ProblemDetails))]
[JsonSerializable(typeof(HttpValidationProblemDetails))]
internal sealed partial class SlotsJsonContext : JsonSerializerContext;
