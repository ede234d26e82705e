using Slots.OpenApi.Tests.Document;
using Slots.OpenApi.Tests.Infrastructure;

namespace Slots.OpenApi.Tests;

/// <summary>
/// Issue #27: from the served document alone, valid requests for every operation are accepted (2xx
/// or a 4xx the operation documents), each stated constraint broken in turn gets a 400 problem whose
/// `errors` names the field, and every answer has a documented status, content type and shape.
/// Fixed CsCheck seed and a few rounds: the same requests every run, in seconds.
/// </summary>
public sealed class SchemaDrivenTests : IAsyncLifetime
{
    private const ulong Seed = 20260427;
    private const int Rounds = 6;

    private readonly OpenApiHost _host = new();

    [Fact]
    public async Task Valid_requests_generated_from_the_document_are_accepted_and_answered_as_documented()
    {
        var exploration = await StartAsync();

        await exploration.ValidRoundsAsync(Rounds, TestContext.Current.CancellationToken);

        Report(exploration);
    }

    [Fact]
    public async Task Each_constraint_the_document_states_broken_alone_gets_a_400_problem_naming_the_field()
    {
        var exploration = await StartAsync();
        await exploration.ValidRoundsAsync(1, TestContext.Current.CancellationToken);   // real places, slots and reservations to break requests on

        await exploration.BreaksAsync(TestContext.Current.CancellationToken);

        Report(exploration);
    }

    private async Task<Exploration> StartAsync()
    {
        var client = _host.Client();
        var document = await ApiDocument.FetchAsync(client, TestContext.Current.CancellationToken);
        var today = DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow, TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava")).DateTime);
        return new Exploration(document, client, OpenApiHost.AdminKey, today, Seed);
    }

    private static void Report(Exploration exploration)
    {
        var output = TestContext.Current.TestOutputHelper!;
        foreach (var note in exploration.Notes)
        {
            output.WriteLine(note);
        }
        var gaps = exploration.Gaps.ToList();
        Assert.True(gaps.Count == 0, $"{gaps.Count} gaps between the document and the API:\n  - " + string.Join("\n  - ", gaps));
    }

    public ValueTask InitializeAsync() => ValueTask.CompletedTask;

    public ValueTask DisposeAsync() => _host.DisposeAsync();
}
