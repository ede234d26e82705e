using System.Data;
using System.Text.Json;
using Microsoft.Data.SqlClient;
using Slots.Sms;

namespace Slots.Storage.SqlServer;

/// <summary>The SMS outbox relay's and the consumer's proc calls (sql/111-116).</summary>
public static partial class SqlServerCommands
{
    // Column size, as declared in sql/031: a consumer's claim token.
    public const int ClaimSize = 32;

    /// <summary>dbo.sms_read_unsent: up to max unsent outbox rows, oldest first.</summary>
    public static SqlCommand SmsReadUnsent(int max)
    {
        var proc = Proc("dbo.sms_read_unsent");
        Add(proc, "@max", SqlDbType.Int, 0, max);
        return proc;
    }

    /// <summary>dbo.sms_mark_sent: the ids as a JSON array.</summary>
    public static SqlCommand SmsMarkSent(IReadOnlyCollection<long> ids, long now)
    {
        var proc = Proc("dbo.sms_mark_sent");
        Add(proc, "@now", SqlDbType.BigInt, 0, now);
        Add(proc, "@ids", SqlDbType.NVarChar, -1, JsonSerializer.Serialize(ids.ToArray(), SmsStoreJson.Default.Int64Array));
        return proc;
    }

    /// <summary>dbo.sms_was_sent: a row when the message has a send's record.</summary>
    public static SqlCommand SmsWasSent(long messageId)
    {
        var proc = Proc("dbo.sms_was_sent");
        Add(proc, "@id", SqlDbType.BigInt, 0, messageId);
        return proc;
    }

    /// <summary>dbo.sms_claim: answers one row, the <see cref="SmsClaimResult"/>.</summary>
    public static SqlCommand SmsClaim(SmsClaim claim, long leaseSeconds)
    {
        var proc = Proc("dbo.sms_claim");
        Add(proc, "@id", SqlDbType.BigInt, 0, claim.MessageId);
        Add(proc, "@kind", SqlDbType.Int, 0, (int)claim.Kind);
        Add(proc, "@code", SqlDbType.VarChar, CodeSize, claim.Code);
        Add(proc, "@now", SqlDbType.BigInt, 0, claim.At);
        Add(proc, "@claim", SqlDbType.VarChar, ClaimSize, claim.Token);
        Add(proc, "@lease", SqlDbType.BigInt, 0, leaseSeconds);
        return proc;
    }

    /// <summary>dbo.sms_release: gives up this consumer's own claim.</summary>
    public static SqlCommand SmsRelease(SmsClaim claim)
    {
        var proc = Proc("dbo.sms_release");
        Add(proc, "@id", SqlDbType.BigInt, 0, claim.MessageId);
        Add(proc, "@claim", SqlDbType.VarChar, ClaimSize, claim.Token);
        return proc;
    }

    /// <summary>dbo.sms_record: the send's record in place of a claim.</summary>
    public static SqlCommand SmsRecord(SmsSendRecord record)
    {
        var proc = Proc("dbo.sms_record");
        Add(proc, "@id", SqlDbType.BigInt, 0, record.MessageId);
        Add(proc, "@kind", SqlDbType.Int, 0, (int)record.Kind);
        Add(proc, "@code", SqlDbType.VarChar, CodeSize, record.Code);
        Add(proc, "@status", SqlDbType.Int, 0, (int)record.Status);
        Add(proc, "@tries", SqlDbType.Int, 0, record.Tries);
        Add(proc, "@at", SqlDbType.BigInt, 0, record.SentAt);
        return proc;
    }
}

[System.Text.Json.Serialization.JsonSerializable(typeof(long[]))]
internal sealed partial class SmsStoreJson : System.Text.Json.Serialization.JsonSerializerContext;
