using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Slots.Retention;

/// <summary>
/// Keeps personal data only as long as a booking needs it: <see cref="RetentionOptions.Days"/>
/// after the appointment, names, phones and person hashes are erased everywhere they were kept.
/// </summary>
public sealed partial class PersonalDataRetention(IPersonalDataEraser eraser, IOptions<RetentionOptions> options, ILogger<PersonalDataRetention> logger)
{
    /// <summary>Erases what is due at <paramref name="now"/>; answers what was erased.</summary>
    public async Task<ErasedRows> EraseDueAsync(DateTimeOffset now, CancellationToken ct)
    {
        var days = options.Value.Days;
        // Days are local to each place; a whole day of margin in UTC keeps every time zone on the safe side.
        var daysBefore = DateOnly.FromDateTime(now.UtcDateTime).AddDays(-days - 1);
        var erased = await eraser.EraseAsync(daysBefore, now.AddDays(-days), now, ct);
        if (erased.Total > 0)
        {
            Erased(logger, erased.Reservations, erased.Outbox, erased.WaitingList, erased.Persons, erased.AdmissionJoins, daysBefore);
        }
        return erased;
    }

    [LoggerMessage(EventId = 9001, Level = LogLevel.Information,
        Message = "Personal data erased: {Reservations} booking rows, {Outbox} SMS rows, {WaitingList} waiting-list entries, {Persons} person entries, {Joins} waiting-room joins (days before {DaysBefore})")]
    private static partial void Erased(ILogger logger, int reservations, int outbox, int waitingList, int persons, int joins, DateOnly daysBefore);
}
