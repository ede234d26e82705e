namespace Slots.Admission;

public sealed class AdmissionOptions
{
    public const string Section = "Slots:WaitingRoom";

    /// <summary>
    /// The key tokens are signed with (HMAC-SHA256), at least 32 characters, the same on every API
    /// instance so any of them honours a token another issued. Required outside Development and
    /// the test fixtures; changing it voids every token in the hands of people waiting.
    /// </summary>
    public string SigningKey { get; set; } = "";

    /// <summary>How long a token is honoured after it was issued: long enough to wait through an opening.</summary>
    public TimeSpan TokenLifetime { get; set; } = TimeSpan.FromHours(12);

    /// <summary>An opening's admission time when staff name none: how long an admitted person has to book.</summary>
    public TimeSpan DefaultAdmissionTime { get; set; } = TimeSpan.FromMinutes(10);

    /// <summary>How old each instance's view of the counters may get: status answers come from it.</summary>
    public TimeSpan ViewRefresh { get; set; } = TimeSpan.FromMilliseconds(500);

    /// <summary>How often the serving counters are advanced (and the seats left in each scope counted).</summary>
    public TimeSpan AdvanceEvery { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Most joins written together in one statement.</summary>
    public int JoinBatch { get; set; } = 500;

    /// <summary>Used where no key is configured, only in Development and the test fixtures.</summary>
    internal const string DevelopmentKey = "development-only-waiting-room-key-do-not-use";
}
