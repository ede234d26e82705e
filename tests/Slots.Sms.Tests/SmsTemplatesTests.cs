using Slots.Reservations;
using Slots.Sms.RabbitMq;
using Slots.Storage;

namespace Slots.Sms.Tests;

public sealed class SmsTemplatesTests
{
    private static readonly DateOnly Day = new(2026, 11, 23);
    private static readonly TimeOnly Time = new(8, 15);

    [Theory]
    [InlineData(ChangeKind.Reserved, "sk", "Rezervacia potvrdena: Poliklinika Ruzinov, 23.11.2026 o 08:15. Kod: K7Q2MX")]
    [InlineData(ChangeKind.Cancelled, "sk", "Rezervacia K7Q2MX (Poliklinika Ruzinov, 23.11.2026 o 08:15) bola zrusena.")]
    [InlineData(ChangeKind.Rescheduled, "sk", "Rezervacia K7Q2MX presunuta: Poliklinika Ruzinov, 23.11.2026 o 08:15.")]
    [InlineData(ChangeKind.Reserved, "en", "Booking confirmed: Poliklinika Ruzinov, 23 Nov 2026 at 08:15. Code: K7Q2MX")]
    [InlineData(ChangeKind.Cancelled, "en", "Booking K7Q2MX (Poliklinika Ruzinov, 23 Nov 2026 at 08:15) has been cancelled.")]
    [InlineData(ChangeKind.Rescheduled, "en", "Booking K7Q2MX moved: Poliklinika Ruzinov, 23 Nov 2026 at 08:15.")]
    public void Text_names_place_date_time_and_code_in_the_persons_language(ChangeKind kind, string language, string expected)
    {
        var message = SmsEvent.From(kind, 1, "K7Q2MX", "+421905000001", language, "Poliklinika Ruzinov", Day, Time);
        Assert.Equal(expected, SmsTemplates.Render(message));
    }

    [Theory]
    [InlineData("sk", "Poliklinika Ruzinov zrusilo termin 23.11.2026 o 08:15 (kod K7Q2MX): Porucha chladenia. Novy termin: https://slots.example.sk/#/place/12")]
    [InlineData("en", "Poliklinika Ruzinov cancelled 23 Nov 2026 at 08:15 (code K7Q2MX): Porucha chladenia. Book again: https://slots.example.sk/#/place/12")]
    public void A_sites_cancel_names_its_reason_and_links_to_booking_again_at_the_place(string language, string expected)
    {
        var message = SmsEvent.From(ChangeKind.SiteCancelled, 1, "K7Q2MX", "+421905000001", language, "Poliklinika Ruzinov", Day, Time, 12, "Porucha chladenia");
        Assert.Equal(expected, SmsTemplates.Render(message, new Uri("https://slots.example.sk/")));
    }

    [Fact]
    public void A_reminder_links_to_the_manage_page_with_the_code_and_nothing_personal()
    {
        var message = SmsEvent.From(ChangeKind.Reminder, 1, "K7Q2MX", "+421905000001", "en", "Poliklinika Ruzinov", Day, Time);
        var text = SmsTemplates.Render(message, new Uri("https://slots.example.sk/"));
        Assert.Equal("Reminder: tomorrow 23 Nov 2026 at 08:15, Poliklinika Ruzinov. Code K7Q2MX. Cancel/move: https://slots.example.sk/#/manage/K7Q2MX", text);
        Assert.DoesNotContain("905000001", text);
    }

    [Theory]
    [InlineData("sk", "Volne miesto pre vas: Poliklinika Ruzinov, 23.11.2026 o 08:15. Drzime ho 15 min, potvrdte tu: https://slots.example.sk/#/waitlist/0123456789abcdef0123456789abcdef")]
    [InlineData("en", "A seat for you: Poliklinika Ruzinov, 23 Nov 2026 at 08:15. Held 15 min, claim it here: https://slots.example.sk/#/waitlist/0123456789abcdef0123456789abcdef")]
    public void A_waiting_list_offer_says_how_long_the_seat_is_held_and_links_to_the_claim(string language, string expected)
    {
        var note = SeatOffered.Note(15, "0123456789abcdef0123456789abcdef");
        var message = SmsEvent.From(ChangeKind.SeatOffered, 1, "~h7", "+421905000001", language, "Poliklinika Ruzinov", Day, Time, 12, note);
        Assert.Equal(expected, SmsTemplates.Render(message, new Uri("https://slots.example.sk/")));
    }

    [Fact]
    public void A_reason_that_looks_like_a_placeholder_is_kept_as_written()
    {
        var message = new SiteCancelled(1, "K7Q2MX", "+421905000001", "en", "P", Day, Time, 3, "{code} {link}");
        Assert.StartsWith("P cancelled 23 Nov 2026 at 08:15 (code K7Q2MX): {code} {link}. Book again: ", SmsTemplates.Render(message));
    }

    [Fact]
    public void Place_name_with_a_placeholder_in_it_is_kept_as_written()
    {
        var message = new SlotReserved(1, "K7Q2MX", "+421905000001", "en", "Hall {code}", Day, Time);
        Assert.Equal("Booking confirmed: Hall {code}, 23 Nov 2026 at 08:15. Code: K7Q2MX", SmsTemplates.Render(message));
    }

    [Theory]
    [InlineData("sk", "Rezervacia potvrdena: Poliklinika Ruzinov, 23.11.2026 o 08:15, 2. davka 14.12.2026 o 08:15. Kod: K7Q2M-X4T9P")]
    [InlineData("en", "Booking confirmed: Poliklinika Ruzinov, 23 Nov 2026 at 08:15, dose 2 14 Dec 2026 at 08:15. Code: K7Q2M-X4T9P")]
    public void A_pair_s_one_confirmation_names_both_doses_in_one_SMS(string language, string expected)
    {
        var message = SmsEvent.From(ChangeKind.Reserved, 1, "K7Q2M-X4T9P", "+421905000001", language, "Poliklinika Ruzinov", Day, Time,
            second: (Day.AddDays(21), Time));
        var text = SmsTemplates.Render(message);
        Assert.Equal(expected, text);
        Assert.True(text.Length <= 160, $"{text.Length} characters: two SMS");
        // On the queue it travels with its second dose; a single booking's message is as it was.
        var json = System.Text.Encoding.UTF8.GetString(SmsBroker.Body(message).Span);
        Assert.Contains("\"secondDate\":\"2026-12-14\"", json, StringComparison.Ordinal);
        Assert.Equal(message, SmsBroker.Read(System.Text.Encoding.UTF8.GetBytes(json)));
        var single = System.Text.Encoding.UTF8.GetString(SmsBroker.Body(new SlotReserved(1, "K7Q2M-X4T9P", "+421905000001", "en", "P", Day, Time)).Span);
        Assert.DoesNotContain("second", single, StringComparison.Ordinal);
    }

    [Fact]
    public void Unknown_language_falls_back_to_Slovak()
    {
        var message = new SlotReserved(1, "K7Q2MX", "+421905000001", "de", "Poliklinika", Day, Time);
        Assert.StartsWith("Rezervacia potvrdena", SmsTemplates.Render(message));
    }

    [Fact]
    public void Every_language_has_a_text_for_every_kind()
    {
        foreach (var language in SmsTemplates.Languages)
        {
            foreach (var kind in Enum.GetValues<ChangeKind>())
            {
                var text = SmsTemplates.Render(SmsEvent.From(kind, 1, "K7Q2MX", "+421905000001", language, "P", Day, Time,
                    note: SeatOffered.Note(15, new string('a', 32))));
                // An offer names no booking yet: its link (with the entry's token) is what it carries.
                Assert.Contains(kind == ChangeKind.SeatOffered ? new string('a', 32) : "K7Q2MX", text);
                Assert.DoesNotContain("{", text);
                Assert.True(text.Length <= 160, $"{language}/{kind} is {text.Length} characters: two SMS");
            }
        }
    }

    [Fact]
    public void Queue_message_carries_what_the_SMS_needs_and_no_more()
    {
        var json = System.Text.Encoding.UTF8.GetString(SmsBroker.Body(new ReservationCancelled(42, "K7Q2MX", "+421905000001", "en", "P", Day, Time)).Span);
        Assert.Equal("""{"kind":"cancelled","id":42,"code":"K7Q2MX","phone":"\u002B421905000001","language":"en","place":"P","date":"2026-11-23","time":"08:15:00"}""", json);
        Assert.Equal(new ReservationCancelled(42, "K7Q2MX", "+421905000001", "en", "P", Day, Time), SmsBroker.Read(System.Text.Encoding.UTF8.GetBytes(json)));
    }

    [Fact]
    public void A_sites_cancel_travels_with_its_place_and_reason()
    {
        var sent = new SiteCancelled(42, "K7Q2MX", "+421905000001", "sk", "P", Day, Time, 12, "Porucha");
        var json = System.Text.Encoding.UTF8.GetString(SmsBroker.Body(sent).Span);
        Assert.Contains("\"kind\":\"site-cancelled\"", json);
        Assert.Equal(sent, SmsBroker.Read(System.Text.Encoding.UTF8.GetBytes(json)));
    }
}
