using Slots.Catalogue;
using Slots.Reservations;

namespace Slots.Api.Tests.Campaign;

/// <summary>Which service a request means at a place (issue 41, D2), decided in Core before the store.</summary>
public sealed class ServiceChoiceTests
{
    private static readonly ServiceInfo Default = new(ServiceIds.Default, ServiceIds.DefaultCode, "Termín", "Appointment", null, true);
    private static readonly ServiceInfo Pcr = new(2, "pcr", "PCR test", "PCR test", null, true);

    private static OfferedService Offered(ServiceInfo service) => new(service, new PlaceOffer(7, service.Id, 2, null, true));

    [Fact]
    public void A_place_with_one_service_gives_it_to_a_request_naming_none()
    {
        var choice = ServiceChoice.Of([Offered(Pcr)], null);

        Assert.Null(choice.Refusal);
        Assert.Equal(Pcr, choice.Service);
    }

    [Fact]
    public void A_place_with_several_services_asks_which_listing_their_codes()
    {
        var choice = ServiceChoice.Of([Offered(Default), Offered(Pcr)], null);

        Assert.Equal(ReservationStatus.ServiceRequired, choice.Refusal);
        Assert.Null(choice.Service);
        Assert.Equal(["default", "pcr"], choice.Codes);
    }

    [Fact]
    public void A_named_service_the_place_offers_is_chosen_among_several()
    {
        var choice = ServiceChoice.Of([Offered(Default), Offered(Pcr)], "pcr");

        Assert.Null(choice.Refusal);
        Assert.Equal(Pcr, choice.Service);
    }

    [Theory]
    [InlineData("booster")] // not in the catalogue, or not offered here, or inactive (the directory leaves those out)
    [InlineData("PCR")]     // codes are compared as stored
    public void A_code_the_place_does_not_offer_is_an_unknown_service(string code)
    {
        var choice = ServiceChoice.Of([Offered(Default), Offered(Pcr)], code);

        Assert.Equal(ReservationStatus.UnknownService, choice.Refusal);
        Assert.Null(choice.Service);
    }

    [Fact]
    public void A_place_that_offers_nothing_active_has_no_service_to_give()
    {
        Assert.Equal(ReservationStatus.UnknownService, ServiceChoice.Of([], null).Refusal);
        Assert.Equal(ReservationStatus.UnknownService, ServiceChoice.Of([], "default").Refusal);
    }

    [Fact]
    public void A_move_takes_the_service_of_the_booking_it_moves()
    {
        var booking = new ReservationDetails("ABC123", new SlotKey(7, new DateOnly(2026, 12, 1), 540, ServiceId: 2), 15, 1, "+421905000001", "hash",
            "Ján", "sk", DateTimeOffset.UnixEpoch);
        var move = new RescheduleCommand("ABC123", new ContactProof("+421905000001", null), new SlotKey(7, new DateOnly(2026, 12, 2), 600),
            DateTimeOffset.UnixEpoch);

        Assert.Equal(2, ReservationService.WithinService(move, booking).Target.ServiceId);
        Assert.Equal(ServiceIds.Default, ReservationService.WithinService(move, null).Target.ServiceId);
    }
}
