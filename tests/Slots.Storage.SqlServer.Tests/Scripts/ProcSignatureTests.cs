using System.Data;
using Microsoft.Data.SqlClient;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using Slots.Admission;
using Slots.Catalogue;
using Slots.Reservations;
using Slots.Scheduling;
using Slots.Sms;
using Slots.Staff;
using Slots.Storage;
using Slots.Storage.SqlServer;
using Slots.WaitingList;

namespace Slots.Storage.SqlServer.Tests.Scripts;

/// <summary>
/// Every stored-procedure command the adapters send matches the proc it calls, as sql/ declares
/// it: the same parameter names, SQL types and sizes, OUTPUT where the proc says OUTPUT, and no
/// parameter without a default left out. A mismatch here is an error SQL Server would raise at
/// the first call; this finds it without a server.
/// </summary>
public sealed class ProcSignatureTests
{
    private static readonly DateTimeOffset Now = new(2026, 11, 22, 12, 0, 0, TimeSpan.Zero);
    private static readonly SlotKey Slot = new(7, new DateOnly(2026, 11, 30), 480);
    private static readonly ReserveCommand Reserve = new(Slot, "person-hash", "+421905123456", "Jana", "sk", "ABCDE-FGHJK", "key-1", "fingerprint", Now);
    private static readonly ContactProof Proof = new("+421905123456", null);
    private static readonly OpenSeat Seat = new(Slot.Day, Slot.StartMinute, 2, 1_800_000_000, KeptForLine: true);
    private static readonly PlannedOffer Offer = new(
        new Waiter(41, Slot.Day, Slot.Day.AddDays(3), "+421905123456", "sk", "0123456789abcdef0123456789abcdef"), Seat, TimeSpan.FromMinutes(15));

    private static readonly SmsClaim Claim = new(41, ChangeKind.Reserved, "ABCDE-FGHJK", "0123456789abcdef0123456789abcdef", Now.ToUnixTimeSeconds());
    private static readonly NewOpening Room = new(OpeningScope.Parse("places:7,8"), Now.AddHours(1), 25.0, TimeSpan.FromMinutes(10), 50);

    private static readonly Dictionary<string, Func<SqlCommand>> Commands = new()
    {
        ["reserve"] = () => SqlServerCommands.Reserve(Reserve),
        ["reserve_pair"] = () => SqlServerCommands.ReservePair(Reserve with
        {
            Second = new SecondDoseRange(Slot.Day.AddDays(21), Slot.Day.AddDays(42), 480),
            SecondCode = "BCDEF-GHJKM",
        }),
        ["reserve_batch"] = () => SqlServerCommands.ReserveBatch([Reserve, Reserve with { IdempotencyKey = "key-2" }]),
        ["cancel"] = () => SqlServerCommands.Cancel(new CancelCommand("ABCDE-FGHJK", Proof, Now)),
        ["reschedule"] = () => SqlServerCommands.Reschedule(new RescheduleCommand("ABCDE-FGHJK", Proof, Slot with { StartMinute = 495 }, Now)),
        ["find_reservation"] = () => SqlServerCommands.FindReservation("ABCDE-FGHJK"),
        ["availability"] = () => SqlServerCommands.Availability(7, Slot.Day, Slot.Day.AddDays(3)),
        ["cold_reserve"] = () => SqlServerCommands.ColdReserve(Reserve),
        ["cold_cancel"] = () => SqlServerCommands.ColdCancel(new CancelCommand("ABCDE-FGHJK", Proof, Now)),
        ["cold_reschedule"] = () => SqlServerCommands.ColdReschedule(new RescheduleCommand("ABCDE-FGHJK", Proof, Slot, Now)),
        ["cold_was_cancelled"] = () => SqlServerCommands.ColdWasCancelled(new CancelCommand("ABCDE-FGHJK", Proof, Now)),
        ["cold_find_reservation"] = () => SqlServerCommands.ColdFindReservation("ABCDE-FGHJK"),
        ["cold_availability"] = () => SqlServerCommands.ColdAvailability(7, Slot.Day, Slot.Day.AddDays(3)),
        ["cold_horizon"] = () => SqlServerCommands.ColdHorizon(7),
        ["load_hot_days"] = () => SqlServerCommands.LoadHotDays(7, Slot.Day, Slot.Day.AddDays(29)),
        ["flush_changes"] = () => SqlServerCommands.FlushChanges(500),
        ["evict_hot_days"] = () => SqlServerCommands.EvictHotDays(7, Slot.Day, Now, 1000),
        ["record_walk_in"] = () => SqlServerCommands.RecordWalkIn(Reserve with { BookedBy = "door-1" }, "ABCDE-FGHJK"),
        ["record_job_run"] = () => SqlServerCommands.RecordJobRun(new JobRun("flush", Now, TimeSpan.FromMilliseconds(12), 3, true, "node-1")),
        ["waiting_room_join"] = () => SqlServerCommands.AdmissionJoin(3, ["hash-a", "hash-b"], Now, new byte[32]),
        ["waiting_room_step"] = () => SqlServerCommands.AdmissionStep(new CounterStep(3, 7, 10, 15, 40, 1_000, Now)),
        ["waiting_room_claim"] = () => SqlServerCommands.AdmissionClaim(new AdmissionClaim(3, 12, 4, "booking-key-1", Now)),
        ["staff_check_in"] = () => SqlServerCommands.StaffCheckIn(new CheckInCommand("ABCDE-FGHJK", 7, "nurse-1", Now)),
        ["add_slots"] = () => SqlServerCommands.AddSlots(7, [new SlotRow { PlaceId = 7, Day = Slot.Day, StartMinute = 480, Minutes = 15, Capacity = 4, StartsAt = 1 }], dryRun: false),
        ["site_cancel_open"] = () => SqlServerStaffStore.BlockCommands.Open(new BlockCancelRequest(7, Slot.Day, 780, 1020, "Doctor ill", "site-admin-1", Now)),
        ["site_cancel_batch"] = () => SqlServerStaffStore.BlockCommands.Batch(12, Now, 200),
        ["site_cancel_finish"] = () => SqlServerStaffStore.BlockCommands.Finish(12, Now),
        ["site_cancel_reopen"] = () => SqlServerStaffStore.BlockCommands.Reopen(12, "admin-1", Now),
        ["staff_mark_no_shows"] = () => SqlServerStaffStore.Commands.MarkNoShows(Now, Now, 500),
        ["waitlist_claim"] = () => SqlServerWaitingListStore.Commands.Claim(new ClaimCommand("0123456789abcdef0123456789abcdef", "ABCDE-FGHJK", Now,
            Slot, new SecondDoseRange(Slot.Day.AddDays(21), Slot.Day.AddDays(42), 480), "BCDEF-GHJKM")),
        ["waitlist_want"] = () => SqlServerWaitingListStore.Commands.Want(7, Slot.Day, Slot.Day.AddDays(3)),
        ["waitlist_mark_wanted"] = () => SqlServerWaitingListStore.Commands.MarkWanted(7),
        ["waitlist_offer"] = () => SqlServerWaitingListStore.Commands.Offer(7, Offer, Now.ToUnixTimeSeconds()),
        ["waitlist_keep_for_line"] = () => SqlServerWaitingListStore.Commands.KeepForLine(3, Now.ToUnixTimeSeconds()),
        ["waitlist_release_seat"] = () => SqlServerWaitingListStore.Commands.ReleaseSeat(7, Seat),
        ["sms_read_unsent"] = () => SqlServerCommands.SmsReadUnsent(100),
        ["sms_mark_sent"] = () => SqlServerCommands.SmsMarkSent([1, 2, 3], Now.ToUnixTimeSeconds()),
        ["sms_was_sent"] = () => SqlServerCommands.SmsWasSent(41),
        ["sms_claim"] = () => SqlServerCommands.SmsClaim(Claim, 60),
        ["sms_release"] = () => SqlServerCommands.SmsRelease(Claim),
        ["sms_record"] = () => SqlServerCommands.SmsRecord(new SmsSendRecord(41, ChangeKind.Reserved, "ABCDE-FGHJK", SmsSendStatus.Sent, 1, Now.ToUnixTimeSeconds())),
        ["waiting_room_create"] = () => SqlServerCommands.AdmissionCreate(Room, Now),
        ["waiting_room_close"] = () => SqlServerCommands.AdmissionClose(3, Now),
        ["waiting_room_find"] = () => SqlServerCommands.AdmissionFind(3),
        ["waiting_room_load"] = () => SqlServerCommands.AdmissionLoad(Now.AddDays(-1), Now.AddMinutes(-5)),
        ["waiting_room_seal"] = () => SqlServerCommands.AdmissionSeal(3, Now, new byte[32]),
        ["waiting_room_free_seats"] = () => SqlServerCommands.AdmissionFreeSeats([7, 8], Now),
        ["waiting_room_outstanding"] = () => SqlServerCommands.AdmissionOutstanding(3, Now.AddMinutes(-5)),
        ["waiting_room_release"] = () => SqlServerCommands.AdmissionRelease(new AdmissionClaim(3, 12, 4, "booking-key-1", Now)),
        ["ping"] = SqlServerCommands.Ping,
    };

    public static TheoryData<string> ProcNames() => [.. Commands.Keys.Order(StringComparer.Ordinal)];

    private static CreateOrAlterProcedureStatement Declared(string name) =>
        Assert.Single(SqlScripts.All<CreateOrAlterProcedureStatement>(SqlScripts.Tree(SqlScripts.FileOf("proc", name))));

    /// <summary>Procs no adapter calls: each runs inside the transaction of the procs that EXEC it.</summary>
    private static readonly string[] InnerProcs = ["seat_second_dose"];

    [Fact]
    public void Every_proc_in_sql_that_the_adapters_call_is_covered()
    {
        var procs = SqlScripts.Files()
            .Select(f => Path.GetFileNameWithoutExtension(f)[4..])
            .Where(n => n.StartsWith("proc_", StringComparison.Ordinal))
            .Select(n => n["proc_".Length..])
            .Distinct() // a proc redefined by a later script (cancel) is one proc
            .Except(InnerProcs);
        // Quartz has no procs; every proc in sql/ has a command built by SqlServerCommands (the staff procs' by SqlServerStaffStore.Commands and BlockCommands).
        Assert.Equal(procs.Order(StringComparer.Ordinal), Commands.Keys.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Every_inner_proc_is_called_by_a_proc_an_adapter_calls_with_every_parameter_it_needs_by_name()
    {
        foreach (var inner in InnerProcs)
        {
            var declared = Declared(inner).Parameters.Where(p => p.Value is null).Select(p => p.VariableName.Value.ToUpperInvariant()).ToHashSet();
            var calls = Commands.Keys
                .SelectMany(caller => SqlScripts.All<ExecutableProcedureReference>(SqlScripts.Tree(SqlScripts.FileOf("proc", caller))))
                .Where(e => SqlScripts.NameOf(e.ProcedureReference.ProcedureReference.Name) == inner)
                .ToList();
            Assert.NotEmpty(calls);
            foreach (var call in calls)
            {
                // Positional calls name none: they must pass exactly as many as are declared.
                var named = call.Parameters.Where(p => p.Variable is not null).Select(p => p.Variable.Name.ToUpperInvariant()).ToHashSet();
                Assert.True(named.Count == 0 ? call.Parameters.Count == Declared(inner).Parameters.Count : named.SetEquals(declared),
                    $"dbo.{inner} is called with {SqlScripts.Text(call)}");
            }
        }
    }

    [Theory]
    [MemberData(nameof(ProcNames))]
    public void The_command_calls_the_proc_by_its_name_as_a_stored_procedure(string name)
    {
        using var command = Commands[name]();

        Assert.Equal(CommandType.StoredProcedure, command.CommandType);
        Assert.Equal("dbo." + name, command.CommandText);
        Assert.Null(command.Connection);
    }

    [Theory]
    [MemberData(nameof(ProcNames))]
    public void The_command_sends_exactly_the_declared_parameters_with_their_types_sizes_and_directions(string name)
    {
        using var command = Commands[name]();
        var declared = Declared(name).Parameters.ToDictionary(p => p.VariableName.Value, StringComparer.OrdinalIgnoreCase);
        var sent = command.Parameters.Cast<SqlParameter>().Where(p => p.Direction != ParameterDirection.ReturnValue).ToList();

        var undeclared = sent.Select(p => p.ParameterName).Where(n => !declared.ContainsKey(n)).ToList();
        Assert.True(undeclared.Count == 0, $"dbo.{name} declares no {string.Join(", ", undeclared)}");
        var missing = declared.Values.Where(p => p.Value is null && !sent.Exists(s => string.Equals(s.ParameterName, p.VariableName.Value, StringComparison.OrdinalIgnoreCase)));
        Assert.True(!missing.Any(), $"dbo.{name} needs {string.Join(", ", missing.Select(p => p.VariableName.Value))}");
        foreach (var parameter in sent)
        {
            var declaration = declared[parameter.ParameterName];
            Assert.Equal((parameter.ParameterName, Expected(declaration)), (parameter.ParameterName, Actual(parameter)));
        }
    }

    [Fact]
    public void Reserve_batch_answers_in_the_columns_the_batcher_reads_with_the_slot_length_from_the_booking_row()
    {
        var proc = Declared("reserve_batch");
        var answer = SqlScripts.All<QuerySpecification>(proc).Last();

        // SqlServerBatcher.SendAsync reads request_no, outcome, code, replayed, minutes by position.
        var columns = answer.SelectElements.Cast<SelectScalarExpression>()
            .Select(c => ((ColumnReferenceExpression)c.Expression).MultiPartIdentifier.Identifiers[^1].Value);
        Assert.Equal(["request_no", "outcome", "code", "replayed", "minutes"], columns);
        var join = Assert.IsType<QualifiedJoin>(Assert.Single(answer.FromClause.TableReferences));
        Assert.Equal(QualifiedJoinType.LeftOuter, join.QualifiedJoinType);
        Assert.Equal("hot_reservations", ((NamedTableReference)join.SecondTableReference).SchemaObject.BaseIdentifier.Value);
    }

    /// <summary>What the adapter must send for a declared parameter: type, size (0 when none), output or not, table type name.</summary>
    private static (SqlDbType Type, int Size, bool Output, string? TypeName) Expected(ProcedureParameter p)
    {
        var output = p.Modifier == ParameterModifier.Output;
        return p.DataType switch
        {
            SqlDataTypeReference sql => (TypeOf(sql.SqlDataTypeOption), SizeOf(sql), output, null),
            UserDataTypeReference user => (SqlDbType.Structured, 0, output, $"{user.Name.SchemaIdentifier?.Value ?? "dbo"}.{user.Name.BaseIdentifier.Value}"),
            var other => throw new InvalidOperationException($"unexpected type {other.GetType().Name} of {p.VariableName.Value}"),
        };
    }

    private static (SqlDbType Type, int Size, bool Output, string? TypeName) Actual(SqlParameter p) =>
        (p.SqlDbType, p.Size, p.Direction is ParameterDirection.Output or ParameterDirection.InputOutput,
            p.SqlDbType == SqlDbType.Structured ? p.TypeName : null);

    private static SqlDbType TypeOf(SqlDataTypeOption option) => option switch
    {
        SqlDataTypeOption.Int => SqlDbType.Int,
        SqlDataTypeOption.SmallInt => SqlDbType.SmallInt,
        SqlDataTypeOption.BigInt => SqlDbType.BigInt,
        SqlDataTypeOption.Bit => SqlDbType.Bit,
        SqlDataTypeOption.Date => SqlDbType.Date,
        SqlDataTypeOption.VarChar => SqlDbType.VarChar,
        SqlDataTypeOption.NVarChar => SqlDbType.NVarChar,
        SqlDataTypeOption.VarBinary => SqlDbType.VarBinary,
        SqlDataTypeOption.Float => SqlDbType.Float,
        var other => throw new InvalidOperationException($"map {other} before using it in a proc parameter"),
    };

    /// <summary>The declared length; (max) is -1, as SqlClient writes it; none is 0.</summary>
    private static int SizeOf(SqlDataTypeReference type) =>
        type.Parameters.Count == 1 && type.Parameters[0] is IntegerLiteral length
            ? int.Parse(length.Value, System.Globalization.CultureInfo.InvariantCulture)
            : type.Parameters.Count == 1 && type.Parameters[0] is MaxLiteral ? -1 : 0;
}
