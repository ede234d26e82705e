namespace Slots.LoadTest.Bench;

/// <summary>
/// The settings every API a benchmark starts shares: keys made for the benchmark only (never a deployment's), no demo
/// data, warnings only in the log, the Production environment as deployed.
/// </summary>
internal static class BenchSecrets
{
    /// <summary>The admin key of the APIs a benchmark starts, unless SLOTS_BENCH_ADMIN_KEY names an external stack's.</summary>
    public static string AdminKey => Environment.GetEnvironmentVariable("SLOTS_BENCH_ADMIN_KEY") is { Length: > 0 } key ? key : "benchmark-only-admin-key-0123456789";

    /// <summary>The API's environment on <paramref name="provider"/> (Postgres or Sqlite) with <paramref name="connection"/>.</summary>
    public static Dictionary<string, string> ApiEnvironment(string provider, string connection) => new()
    {
        ["ASPNETCORE_ENVIRONMENT"] = "Production",
        ["Slots__Storage__Provider"] = provider,
        ["ConnectionStrings__Slots"] = connection,
        ["Slots__Persons__HmacSecret"] = "benchmark-only-secret-0123456789",
        ["Slots__Invitations__HmacSecret"] = "benchmark-only-invitation-key-0123456789",
        ["Slots__WaitingRoom__SigningKey"] = "benchmark-only-waiting-room-key-0123456789",
        ["Slots__Admin__Keys__bench__Key"] = AdminKey,
        ["Slots__Admin__Keys__bench__Role"] = "admin",
        ["Slots__DemoData__WhenEmpty"] = "false",
        ["Logging__LogLevel__Default"] = "Warning",
    };
}
