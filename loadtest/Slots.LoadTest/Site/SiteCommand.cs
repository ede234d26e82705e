using System.Globalization;
using System.Text.Json;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Site;

public sealed record SiteOptions(Uri Target, string AdminKey, string? StaffToken, string RunId, int Concurrency, int Seconds, int WarmupSeconds, int SeatsPerSlot);

/// <summary>Slots.LoadTest site: the site's day (<see cref="SiteDay"/>) against a running API.</summary>
public static class SiteCommand
{
    public const string Usage = """
                       Slots.LoadTest site --target URL --admin-key KEY [--staff-signing-key BASE64 [--staff-issuer slots-bench] [--staff-audience slots-api]]
                           [--seconds 10] [--warmup-seconds 3] [--concurrency 8] [--seats 240 (per slot; 5 slots a day)] [--run-id LETTERS]
                           [--watch-pids P,…] [--json PATH]
                           (a site's day: 1,200 bookings, the roster read while the door checks each in once, a block cancel of the next day's 1,200)
        """;

    public static async Task<int> RunAsync(Args args, IReadOnlyList<(string Role, int Pid)> pids, CancellationToken ct)
    {
        var target = AdminTarget.Read(args);
        var signingKey = args.Text("staff-signing-key");
        var issuer = args.Text("staff-issuer", "slots-bench")!;
        var audience = args.Text("staff-audience", "slots-api")!;
        var concurrency = args.Whole("concurrency", 8, 1, 256);
        var seconds = args.Whole("seconds", 10, 1, 600);
        var warmup = args.Whole("warmup-seconds", 3, 0, 120);
        var seats = args.Whole("seats", 240, 1, 10_000);
        var json = args.Text("json");
        args.RejectUnknown();
        byte[]? key = null;
        if (signingKey is not null && (!TryBase64(signingKey, out key) || key.Length < 32))
        {
            args.Errors.Add("--staff-signing-key must be base64 of at least 32 bytes: the key the API's bearer scheme checks with.");
        }
        if (args.Errors.Count > 0 || target is null)
        {
            return Cli.Fail(args.Errors);
        }
        var token = key is null ? null : Token(key, issuer, audience);
        var report = await SiteDay.RunAsync(new SiteOptions(target.Url, target.AdminKey, token, target.RunId, concurrency, seconds, warmup, seats), pids, ct);
        Console.WriteLine(Line(report));
        Cli.Write(json, report);
        return 0;
    }

    /// <summary>The report in one line, as the summary gives it.</summary>
    public static string Line(SiteReport r) => string.Create(CultureInfo.InvariantCulture,
        $"the site's day ({r.Booked:N0} bookings at one place, {r.SignIn}): roster (a page of 100 with the day's counts, {r.Roster.Concurrency} at a time) " +
        $"{r.Roster.PerSecond:0.#}/s, p50 {r.Roster.Ok.P50:0.00} ms, p99 {r.Roster.Ok.P99:0.00} ms, other answers {r.Roster.NotOk}{Cpu(r.Roster)}; " +
        $"check-in (each code once, {r.CheckIn.Concurrency} at a time{Warmed(r)}) {r.CheckIn.Ok.Count:N0} in {r.CheckIn.Seconds:0.0} s = {r.CheckIn.PerSecond:0.#}/s, " +
        $"p50 {r.CheckIn.Ok.P50:0.00} ms, p99 {r.CheckIn.Ok.P99:0.00} ms, other answers {r.CheckIn.NotOk}{Cpu(r.CheckIn)}; roster afterwards: " +
        $"{r.After.Booked} booked, {r.After.CheckedIn} checked in; block cancel of the next day's {r.BlockBooked:N0} bookings in one request: " +
        $"{r.BlockMilliseconds:0} ms, cancelled {r.Block.Cancelled}, kept {r.Block.Kept}, finished {r.Block.Finished.ToString().ToLowerInvariant()}");

    private static string Warmed(SiteReport r) =>
        r.CheckInWarmups > 0 ? string.Create(CultureInfo.InvariantCulture, $", after {r.CheckInWarmups:N0} uncounted at a place of their own") : "";

    private static string Cpu(SitePhase phase) => phase.ApiCpuMicrosPerAnswer is { } us ? string.Create(CultureInfo.InvariantCulture, $", API CPU {us:0} µs per answer") : "";

    /// <summary>A staff member's bearer token (role admin), signed as the site's provider would with the key the API was given.</summary>
    private static string Token(byte[] key, string issuer, string audience) => new JsonWebTokenHandler().CreateToken(new SecurityTokenDescriptor
    {
        Issuer = issuer,
        Audience = audience,
        IssuedAt = DateTime.UtcNow.AddMinutes(-1),
        NotBefore = DateTime.UtcNow.AddMinutes(-1),
        Expires = DateTime.UtcNow.AddHours(1),
        SigningCredentials = new SigningCredentials(new SymmetricSecurityKey(key), SecurityAlgorithms.HmacSha256),
        Claims = new Dictionary<string, object> { ["sub"] = "site-bench", ["role"] = new[] { "admin" }, ["places"] = Array.Empty<string>() },
    });

    private static bool TryBase64(string text, out byte[] bytes)
    {
        bytes = new byte[text.Length];
        if (Convert.TryFromBase64String(text, bytes, out var n))
        {
            bytes = bytes[..n];
            return true;
        }
        return false;
    }
}
