using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>The procs' outcome numbers as the port's values; the numbers are the enums' own (see sql/013..016).</summary>
public static class SqlServerOutcomes
{
    /// <summary>8 (KeyReused) is null, as the port says; 1..5 are ReservationStatus. Minutes (0: not known) is kept for a booking only.</summary>
    public static ReserveResult? Reserve(int outcome, string? code, bool replayed, int minutes = 0) => outcome switch
    {
        (int)ReservationStatus.KeyReused => null,
        >= (int)ReservationStatus.Reserved and <= (int)ReservationStatus.SlotStarted =>
            new ReserveResult((ReservationStatus)outcome, code, replayed,
                outcome == (int)ReservationStatus.Reserved ? minutes : 0),
        _ => throw new InvalidOperationException($"dbo.reserve answered unknown outcome {outcome}."),
    };

    public static CancelStatus Cancel(int outcome) =>
        Enum.IsDefined((CancelStatus)outcome)
            ? (CancelStatus)outcome
            : throw new InvalidOperationException($"dbo.cancel answered unknown outcome {outcome}.");

    public static RescheduleStatus Reschedule(int outcome) =>
        Enum.IsDefined((RescheduleStatus)outcome)
            ? (RescheduleStatus)outcome
            : throw new InvalidOperationException($"dbo.reschedule answered unknown outcome {outcome}.");

    /// <summary>
    /// Where the seat scan starts: a non-negative spread of the code (FNV-1a), so racers on one
    /// slot start at different seats. Stable, so a retry starts where the first attempt did
    /// (the seat a racer took in between is then seen taken and skipped).
    /// </summary>
    public static int SeatHint(string code)
    {
        var hash = 2166136261u;
        foreach (var c in code)
        {
            hash = (hash ^ c) * 16777619u;
        }
        return (int)(hash & 0x7FFF_FFFF);
    }
}
