using Slots.Catalogue;
using Slots.Reservations;

namespace Slots.Api.Tests.Reservations;

/// <summary>
/// A slot key names its service, yet a service-1 key reads as it did before services existed: the
/// idempotency fingerprint hashes that text, and requests in flight across a deploy must still match.
/// </summary>
public sealed class SlotKeyServiceTests
{
    private static readonly DateOnly Day = new(2026, 11, 27);

    private static BookingRequest Request(SlotKey slot) =>
        new(slot, "Test Person", "+421900000001", "person-hash-00000001", "sk");

    [Fact]
    public void A_key_that_names_no_service_holds_the_default_service()
    {
        Assert.Equal(ServiceIds.Default, new SlotKey(7, Day, 600).ServiceId);
        Assert.Equal(new SlotKey(7, Day, 600, ServiceIds.Default), new SlotKey(7, Day, 600));
    }

    [Fact]
    public void A_default_service_key_reads_as_before_services_existed()
    {
        Assert.Equal("7/2026-11-27/10:00", new SlotKey(7, Day, 600).ToString());
        Assert.Equal("7/2026-11-27/10:00", new SlotKey(7, Day, 600, ServiceIds.Default).ToString());
    }

    [Fact]
    public void A_default_service_request_keeps_the_fingerprint_it_had_before_services_existed()
    {
        // SHA-256 of "7/2026-11-27/10:00|person-hash-00000001|+421900000001|Test Person|sk", first 32 hex digits:
        // the value a deploy without services computed for this request.
        Assert.Equal("f82849eb226ff3092442b69f729dbeff", ReservationService.Fingerprint(Request(new SlotKey(7, Day, 600))));
    }

    [Fact]
    public void The_same_slot_of_another_service_is_another_key_and_another_fingerprint()
    {
        var first = new SlotKey(7, Day, 600);
        var other = new SlotKey(7, Day, 600, 2);

        Assert.NotEqual(first, other);
        Assert.NotEqual(first.ToString(), other.ToString());
        Assert.NotEqual(ReservationService.Fingerprint(Request(first)), ReservationService.Fingerprint(Request(other)));
    }
}
