using Slots.Reservations;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Adapter;

/// <summary>
/// The cold procs as a test drives them: each write fails with the given error numbers in order,
/// then answers the given raw numbers; reads answer what they are given. Records what each call got.
/// </summary>
public sealed class FakeColdProcs : ISqlServerColdProcs
{
    public FailingOperation<ColdProcAnswer> Reserve { get; set; } = new(new ColdProcAnswer(0, 1, "ABCDE-FGHJK"));

    public FailingOperation<ColdProcAnswer> Cancel { get; set; } = new(new ColdProcAnswer(0, 1));

    public FailingOperation<ColdProcAnswer> Reschedule { get; set; } = new(new ColdProcAnswer(0, 1));

    public DateOnly? Horizon { get; set; }

    public IReadOnlyList<SlotAvailability> Slots { get; set; } = [];

    public List<object> Commands { get; } = [];

    ValueTask<ColdProcAnswer> ISqlServerColdProcs.ReserveAsync(ReserveCommand c, CancellationToken ct)
    {
        Commands.Add(c);
        return Reserve.RunAsync(ct);
    }

    ValueTask<ColdProcAnswer> ISqlServerColdProcs.CancelAsync(CancelCommand c, CancellationToken ct)
    {
        Commands.Add(c);
        return Cancel.RunAsync(ct);
    }

    ValueTask<ColdProcAnswer> ISqlServerColdProcs.RescheduleAsync(RescheduleCommand c, CancellationToken ct)
    {
        Commands.Add(c);
        return Reschedule.RunAsync(ct);
    }

    Task<ReservationDetails?> ISqlServerColdProcs.FindAsync(string code, CancellationToken ct) => Task.FromResult<ReservationDetails?>(null);

    Task<bool> ISqlServerColdProcs.WasCancelledAsync(CancelCommand c, CancellationToken ct) => Task.FromResult(false);

    Task<(DateOnly? Horizon, IReadOnlyList<SlotAvailability> Slots)> ISqlServerColdProcs.AvailabilityAsync(
        int placeId, DateOnly from, DateOnly to, CancellationToken ct) => Task.FromResult((Horizon, Slots));

    Task<DateOnly?> ISqlServerColdProcs.HorizonAsync(int placeId, CancellationToken ct) => Task.FromResult(Horizon);
}
