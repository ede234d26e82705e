using Slots.Sms;

namespace Slots.LoadTest.Chaos;

/// <summary>
/// Checks a recorded history against the final state, rule by rule (issue 17). Pure: the history
/// and the state go in, a report comes out, so hand-made histories test every rule.
/// </summary>
public static class HistoryChecker
{
    /// <summary>Answers that never reached the booking code: HAProxy's rate limit and its queue shedding.</summary>
    private static bool TurnedAwayAtTheDoor(Operation op) => op.Status is 429 or 503;

    public static CheckReport Check(IReadOnlyList<Operation> history, FinalState state, IReadOnlyList<Fault>? faults = null)
    {
        var ops = history.OrderBy(o => o.InvokeMs).ThenBy(o => o.Id).ToList();
        var timelines = Timelines(ops);
        var hotByCode = state.Hot.ToDictionary(h => h.Code, StringComparer.Ordinal);
        var diskByCode = state.Disk.ToDictionary(d => d.Code, StringComparer.Ordinal);

        var lost = Confirmed(timelines, hotByCode, out var lostCount);
        var seats = Seats(state, out var doubledSeats);
        var replays = Replays(ops, state);
        var unknowns = Unknowns(ops, state, out var ghosts);
        var cancels = Cancels(ops, timelines, state, hotByCode, diskByCode);
        var persons = Persons(state, out var twice);
        var disk = DiskEqualsHot(state, hotByCode);
        var sms = Sms(timelines, ops, state, faults ?? [], out var lostSms, out var doubledSms);
        var jobs = Jobs(state);
        RuleResult[] rules = [lost, seats, replays, unknowns, cancels, persons, disk, sms, jobs];
        if (faults?.Any(f => Nemesis.IsPrimarySwitch(f.Kind)) == true)
        {
            rules = [.. rules, SwitchAnswers(ops, faults)];
        }
        return new CheckReport(rules,
            Lost: lostCount + lostSms, Doubled: doubledSeats + ghosts + twice + doubledSms);
    }

    private static Dictionary<string, CodeTimeline> Timelines(List<Operation> ops)
    {
        var timelines = new Dictionary<string, CodeTimeline>(StringComparer.Ordinal);
        foreach (var op in ops)
        {
            var code = op.IsReserve ? op.ResultCode : op.Code;
            if (code is null || (op.IsReserve && op.Status != 201))
            {
                continue;
            }
            if (!timelines.TryGetValue(code, out var t))
            {
                timelines[code] = t = new CodeTimeline(code);
            }
            t.Apply(op);
        }
        return timelines;
    }

    private static KeyValuePair<string, long> Count(string label, long n) => new(label, n);

    /// <summary>Every 201 (not since cancelled) is at its seat; every answer about a code agrees with what went before.</summary>
    private static RuleResult Confirmed(Dictionary<string, CodeTimeline> timelines, Dictionary<string, HotReservation> hot, out long lost)
    {
        var violations = new List<string>();
        long confirmed = 0, present = 0, cancelled = 0, misplaced = 0;
        lost = 0;
        foreach (var t in timelines.Values)
        {
            violations.AddRange(t.Contradictions);
            if (!t.Confirmed)
            {
                continue;
            }
            confirmed++;
            SlotRef? actual = hot.TryGetValue(t.Code, out var h) ? h.Slot : null;
            if (t.Allows(actual))
            {
                if (actual is null)
                {
                    cancelled++;
                }
                else
                {
                    present++;
                }
                continue;
            }
            if (actual is null)
            {
                lost++;
                violations.Add($"LOST {t.Code}: answered 201 and never cancelled, but no active reservation holds it (last definite answer: {t.Because})");
            }
            else
            {
                misplaced++;
                violations.Add($"MISPLACED {t.Code}: at {actual}, the history allows {t.Describe()} (last definite answer: {t.Because})");
            }
        }
        return new RuleResult("confirmed-reservations-exist",
            "every reservation answered 201 and not cancelled by an OK'd cancel exists at its seat; every answer about a code fits the history",
            [Count("confirmed", confirmed), Count("present", present), Count("cancelled", cancelled), Count("lost", lost), Count("misplaced", misplaced),
             Count("contradicting answers", violations.Count - lost - misplaced)],
            violations);
    }

    /// <summary>No seat held by two codes, every reservation's seat shows its code, no slot over capacity (hot and disk).</summary>
    private static RuleResult Seats(FinalState state, out long doubled)
    {
        var violations = new List<string>();
        var shared = state.Hot.GroupBy(h => (h.Slot, h.Seat)).Where(g => g.Count() > 1).ToList();
        foreach (var g in shared)
        {
            violations.Add($"DOUBLED seat {g.Key.Slot} #{g.Key.Seat} held by {string.Join(", ", g.Select(h => h.Code))}");
        }
        var seatCodes = state.Seats.ToDictionary(s => (s.Slot, s.Seat), s => s.Code);
        var mismatched = 0;
        foreach (var h in state.Hot)
        {
            if (!seatCodes.TryGetValue((h.Slot, h.Seat), out var shown) || shown != h.Code)
            {
                mismatched++;
                violations.Add($"seat {h.Slot} #{h.Seat} of {h.Code} shows {shown ?? "free"}: it could be given again");
            }
        }
        var hotCodes = state.Hot.Select(h => h.Code).ToHashSet(StringComparer.Ordinal);
        var orphans = state.Seats.Where(s => !hotCodes.Contains(s.Code)).ToList();
        foreach (var s in orphans)
        {
            violations.Add($"seat {s.Slot} #{s.Seat} held by {s.Code}, which no active reservation has: a seat lost to everyone");
        }
        var over = state.Hot.GroupBy(h => h.Slot)
            .Where(g => state.Capacity.TryGetValue(g.Key, out var c) ? g.Count() > c : true).ToList();
        foreach (var g in over)
        {
            var capacity = state.Capacity.TryGetValue(g.Key, out var c) ? c.ToString(System.Globalization.CultureInfo.InvariantCulture) : "unknown";
            violations.Add($"OVER CAPACITY slot {g.Key}: {g.Count()} reservations, capacity {capacity}");
        }
        var sharedOnDisk = state.Disk.Where(d => !d.Cancelled).GroupBy(d => (d.Slot, d.Seat)).Where(g => g.Count() > 1).ToList();
        foreach (var g in sharedOnDisk)
        {
            violations.Add($"DOUBLED seat on disk {g.Key.Slot} #{g.Key.Seat}: {string.Join(", ", g.Select(d => d.Code))}");
        }
        doubled = shared.Count + over.Count + sharedOnDisk.Count;
        return new RuleResult("one-code-per-seat", "no seat is held by two codes and no slot is over capacity",
            [Count("active reservations", state.Hot.Count), Count("slots", state.Hot.Select(h => h.Slot).Distinct().Count()),
             Count("seats held twice", shared.Count), Count("seats showing another code", mismatched), Count("orphan seats", orphans.Count),
             Count("slots over capacity", over.Count), Count("seats held twice on disk", sharedOnDisk.Count)],
            violations);
    }

    /// <summary>A key that got 201 answers the same code every time, and its remembered answer is that code.</summary>
    private static RuleResult Replays(List<Operation> ops, FinalState state)
    {
        var violations = new List<string>();
        var remembered = state.Idempotency.ToDictionary(i => i.Key, StringComparer.Ordinal);
        long keys = 0, replays = 0;
        foreach (var byKey in ops.Where(o => o.IsReserve && o.Key is not null).GroupBy(o => o.Key!))
        {
            var first = byKey.FirstOrDefault(o => o.Status == 201);
            if (first is null)
            {
                continue;
            }
            keys++;
            foreach (var op in byKey.Where(o => o.InvokeMs >= first.CompleteMs && o != first))
            {
                replays += op.Outcome == Outcome.Ok ? 1 : 0;
                if (op.Status == 201 && op.ResultCode != first.ResultCode)
                {
                    violations.Add($"key {byKey.Key} answered {first.ResultCode} ({first}) and then {op.ResultCode}: {op}");
                }
                else if (op.Outcome == Outcome.Fail && !TurnedAwayAtTheDoor(op))
                {
                    violations.Add($"key {byKey.Key} answered 201 {first.ResultCode} ({first}) and then a refusal: {op}");
                }
            }
            foreach (var other in byKey.Where(o => o.Status == 201 && o.ResultCode != first.ResultCode && o.InvokeMs < first.CompleteMs))
            {
                violations.Add($"key {byKey.Key} answered two codes at once: {first} and {other}");
            }
            if (remembered.TryGetValue(byKey.Key, out var row) && row.Code != first.ResultCode)
            {
                violations.Add($"key {byKey.Key} answered {first.ResultCode} but remembers {row.Code ?? "no code"} (outcome {row.Outcome})");
            }
        }
        return new RuleResult("replays-return-the-same-code", "a key that got 201 replays the same code every time",
            [Count("keys answered 201", keys), Count("replays answered", replays), Count("different answers", violations.Count)], violations);
    }

    /// <summary>
    /// Every reservation the database holds (active or cancelled, hot or disk) is accounted for by one
    /// key: a 201, an already-booked answer, or the key's remembered code. One that no key accounts for
    /// is an attempt that took effect a second time.
    /// </summary>
    private static RuleResult Unknowns(List<Operation> ops, FinalState state, out long ghosts)
    {
        var violations = new List<string>();
        var historyKeys = ops.Where(o => o.IsReserve && o.Key is not null).Select(o => o.Key!).ToHashSet(StringComparer.Ordinal);
        var accounted = ops.Where(o => o.IsReserve && o.ResultCode is not null).Select(o => o.ResultCode!)
            .Concat(state.Idempotency.Where(i => i.Code is not null && historyKeys.Contains(i.Key)).Select(i => i.Code!))
            .ToHashSet(StringComparer.Ordinal);
        var existing = state.Hot.Select(h => h.Code).Concat(state.Disk.Select(d => d.Code)).ToHashSet(StringComparer.Ordinal);
        var ghostCodes = existing.Where(c => !accounted.Contains(c)).Order(StringComparer.Ordinal).ToList();
        foreach (var code in ghostCodes)
        {
            violations.Add($"GHOST reservation {code}: in the database, but no key of the history accounts for it");
        }
        ghosts = ghostCodes.Count;

        var remembered = state.Idempotency.ToDictionary(i => i.Key, StringComparer.Ordinal);
        long unknownKeys = 0, tookEffect = 0, didNot = 0;
        foreach (var byKey in ops.Where(o => o.IsReserve && o.Key is not null).GroupBy(o => o.Key!))
        {
            if (byKey.Any(o => o.Outcome != Outcome.Unknown && !TurnedAwayAtTheDoor(o)))
            {
                continue;
            }
            unknownKeys++;
            if (remembered.TryGetValue(byKey.Key, out var row) && row.Code is not null && existing.Contains(row.Code))
            {
                tookEffect++;
            }
            else
            {
                didNot++;
            }
        }
        var unknownOps = ops.Count(o => o.Outcome == Outcome.Unknown);
        return new RuleResult("unknown-outcomes-took-effect-once-or-not-at-all",
            "an operation with an unknown outcome either took effect once or not at all",
            [Count("operations with unknown outcome", unknownOps), Count("keys never answered", unknownKeys), Count("of which took effect", tookEffect),
             Count("did not", didNot), Count("reservations in the database", existing.Count), Count("unaccounted reservations", ghosts)],
            violations);
    }

    /// <summary>An OK'd cancel freed the seat, the person and the code, and the disk shows it cancelled.</summary>
    private static RuleResult Cancels(List<Operation> ops, Dictionary<string, CodeTimeline> timelines, FinalState state,
        Dictionary<string, HotReservation> hot, Dictionary<string, DiskReservation> disk)
    {
        var violations = new List<string>();
        var seatCodes = state.Seats.Select(s => s.Code).ToHashSet(StringComparer.Ordinal);
        var held = state.ActivePersons.Values.ToHashSet(StringComparer.Ordinal);
        var cancels = ops.Where(o => o.Kind == OpKind.Cancel && o.Outcome == Outcome.Ok && o.Code is not null).ToList();
        foreach (var op in cancels)
        {
            var code = op.Code!;
            if (hot.ContainsKey(code))
            {
                violations.Add($"cancelled {code} is still an active reservation: {op}");
            }
            if (seatCodes.Contains(code))
            {
                violations.Add($"cancelled {code} still holds its seat: {op}");
            }
            if (held.Contains(code))
            {
                violations.Add($"cancelled {code} still counts as its person's active reservation: {op}");
            }
            if (!disk.TryGetValue(code, out var d) || !d.Cancelled)
            {
                violations.Add($"cancelled {code} is {(d is null ? "missing" : "active")} on disk: {op}");
            }
        }
        return new RuleResult("cancels-free-their-seats", "every OK'd cancel freed its seat",
            [Count("cancels answered OK", cancels.Count), Count("cancels with unknown outcome", ops.Count(o => o.Kind == OpKind.Cancel && o.Outcome == Outcome.Unknown)),
             Count("not freed", violations.Count)],
            violations);
    }

    /// <summary>No person holds two active reservations, and every one of them is counted against its person.</summary>
    private static RuleResult Persons(FinalState state, out long twice)
    {
        var violations = new List<string>();
        var doubles = state.Hot.GroupBy(h => h.PersonHash).Where(g => g.Count() > 1).ToList();
        foreach (var g in doubles)
        {
            // The hash is a keyed HMAC, not the person; its first characters are enough to find the rows.
            violations.Add($"TWO ACTIVE for person {g.Key[..Math.Min(8, g.Key.Length)]}…: {string.Join(", ", g.Select(h => h.Code))}");
        }
        twice = doubles.Count;
        var unguarded = state.Hot.Where(h => !state.ActivePersons.TryGetValue(h.PersonHash, out var c) || c != h.Code).ToList();
        foreach (var h in unguarded)
        {
            violations.Add($"{h.Code} is active but its person's entry names {(state.ActivePersons.TryGetValue(h.PersonHash, out var c) ? c : "nothing")}: the person could book again");
        }
        return new RuleResult("one-active-reservation-per-person", "no person holds two active reservations",
            [Count("persons with a reservation", state.Hot.Select(h => h.PersonHash).Distinct().Count()), Count("persons with two", twice),
             Count("reservations not counted against their person", unguarded.Count)],
            violations);
    }

    /// <summary>After the final flush the disk tables say what the hot tables say.</summary>
    private static RuleResult DiskEqualsHot(FinalState state, Dictionary<string, HotReservation> hot)
    {
        var violations = new List<string>();
        if (state.PendingChanges > 0)
        {
            violations.Add($"{state.PendingChanges} change records still wait for the flush");
        }
        var disk = state.Disk.ToDictionary(d => d.Code, StringComparer.Ordinal);
        foreach (var h in state.Hot)
        {
            if (!disk.TryGetValue(h.Code, out var d))
            {
                violations.Add($"{h.Code} is hot at {h.Slot} but missing on disk");
            }
            else if (d.Cancelled || d.Slot != h.Slot || d.Seat != h.Seat || d.PersonHash != h.PersonHash)
            {
                violations.Add($"{h.Code} is hot at {h.Slot} #{h.Seat}, on disk {(d.Cancelled ? "cancelled" : "active")} at {d.Slot} #{d.Seat}");
            }
        }
        foreach (var d in state.Disk.Where(d => !d.Cancelled && state.HotDays.Contains((d.Slot.PlaceId, d.Slot.Day)) && !hot.ContainsKey(d.Code)))
        {
            violations.Add($"{d.Code} is active on disk at {d.Slot} but not in the hot tables");
        }
        return new RuleResult("disk-equals-hot", "the disk tables equal the hot tables for every reservation",
            [Count("hot reservations", state.Hot.Count), Count("disk rows", state.Disk.Count), Count("pending changes", state.PendingChanges),
             Count("differences", violations.Count)],
            violations);
    }

    /// <summary>
    /// One SMS per confirmation, cancellation and move: one outbox row each, sent once, none lost. The
    /// one second copy allowed is a send its process could not record because it was SIGKILLed in
    /// between (see <see cref="ResentAfterItsSenderDied"/>); it is counted apart, never as "sent once".
    /// </summary>
    private static RuleResult Sms(Dictionary<string, CodeTimeline> timelines, List<Operation> ops, FinalState state, IReadOnlyList<Fault> faults,
        out long lost, out long doubled)
    {
        var violations = new List<string>();
        lost = 0;
        doubled = 0;
        var rows = state.Outbox.ToLookup(o => (o.Code, o.Kind));
        var codes = state.Hot.Select(h => h.Code).Concat(state.Disk.Select(d => d.Code)).ToHashSet(StringComparer.Ordinal);
        var cancelled = state.Disk.Where(d => d.Cancelled).Select(d => d.Code)
            .Concat(ops.Where(o => o.Kind == OpKind.Cancel && o.Outcome == Outcome.Ok).Select(o => o.Code!))
            .ToHashSet(StringComparer.Ordinal);
        foreach (var code in codes.Concat(timelines.Where(t => t.Value.Confirmed).Select(t => t.Key)).Distinct(StringComparer.Ordinal))
        {
            Expect(code, 1, rows[(code, 1)].Count(), 1, 1, ref lost, ref doubled, violations);
            var c = cancelled.Contains(code) ? 1 : 0;
            Expect(code, 2, rows[(code, 2)].Count(), c, c, ref lost, ref doubled, violations);
            var t = timelines.GetValueOrDefault(code);
            var moves = rows[(code, 3)].Count();
            var most = t?.PossibleMoves ?? int.MaxValue;
            Expect(code, 3, moves, t?.CertainMoves ?? 0, most, ref lost, ref doubled, violations);
        }
        var lines = state.SinkLines.ToLookup(l => l.Id);
        long sent = 0;
        long resent = 0;
        foreach (var row in state.Outbox)
        {
            var copies = lines[row.Id].OrderBy(l => l.At).ToList();
            var n = copies.Count;
            if (n == 0)
            {
                lost++;
                violations.Add($"SMS LOST: message {row.Id} (kind {row.Kind}, {row.Code}) {(row.Sent ? "relayed" : "never relayed")}, {(state.SmsSent.Contains(row.Id) ? "recorded as sent" : "not recorded")}, but the sink has no line for it");
            }
            else if (ResentAfterItsSenderDied(copies, faults))
            {
                resent++;
            }
            else if (n > 1)
            {
                doubled++;
                violations.Add($"SMS SENT {n} TIMES: message {row.Id} (kind {row.Kind}, {row.Code}) by {string.Join(", ", copies.Select(c => $"{c.Sender} at {c.At:HH:mm:ss.fff}"))}");
            }
            else
            {
                sent++;
            }
            if (n > 0 && !state.SmsSent.Contains(row.Id))
            {
                violations.Add($"message {row.Id} was sent but not recorded in sms_sent: a redelivery would send it again");
            }
        }
        var known = state.Outbox.Select(o => o.Id).ToHashSet();
        foreach (var id in lines.Select(g => g.Key).Where(id => !known.Contains(id)))
        {
            violations.Add($"the sink sent message {id}, which no outbox row holds");
        }
        return new RuleResult("one-sms-per-change", "every confirmation, cancellation and reschedule produced exactly one SMS",
            [Count("outbox rows", state.Outbox.Count), Count("sent once", sent), Count("lost", lost), Count("sent twice or more", doubled),
             Count("sent again after their sender was killed before its record", resent), Count("sink lines", state.SinkLines.Count)],
            violations);
    }

    /// <summary>
    /// How long a process keeps a sent message whose record in sms_sent fails before it gives up
    /// (Slots:Sms:RecordPatience; the chaos stack keeps the default).
    /// </summary>
    private static readonly TimeSpan RecordPatience = new SmsOptions().RecordPatience;

    /// <summary>
    /// Two copies, where the process that wrote the first was SIGKILLed after writing it and at most
    /// RecordPatience later (so before it could record the send), and the second came after that kill.
    /// That is the gap no sender closes alone: the dead process's claim runs out (ClaimLease) and
    /// another consumer sends the message again, under the same message id as its Idempotency-Key,
    /// which a real gateway takes once. Two copies from live processes, a third copy, or a copy sent
    /// again before its first sender died are still doubles.
    /// </summary>
    private static bool ResentAfterItsSenderDied(List<SinkLine> copies, IReadOnlyList<Fault> faults)
    {
        if (copies.Count != 2)
        {
            return false;
        }
        var (first, second) = (copies[0], copies[1]);
        return faults.Any(f => f.KilledAt is { } killed && f.Target == first.Sender
            && first.At <= killed && killed - first.At <= RecordPatience && second.At > killed);
    }

    private static void Expect(string code, int kind, int actual, int least, int most, ref long lost, ref long doubled, List<string> violations)
    {
        var what = kind switch { 1 => "confirmation", 2 => "cancellation", _ => "reschedule" };
        if (actual < least)
        {
            lost += least - actual;
            violations.Add($"SMS LOST: {code} has {actual} {what} outbox rows, expected {least}{(most > least ? $"..{most}" : "")}");
        }
        else if (actual > most)
        {
            doubled += actual - most;
            violations.Add($"SMS DOUBLED: {code} has {actual} {what} outbox rows, expected at most {most}");
        }
    }

    /// <summary>
    /// No job ran on two nodes at once. job_runs keeps whole seconds, so a run may have started up to
    /// a second after its stamp: only runs that certainly overlapped count.
    /// </summary>
    private static RuleResult Jobs(FinalState state)
    {
        var violations = new List<string>();
        var runs = state.JobRuns.Distinct().ToList();
        foreach (var job in runs.GroupBy(r => r.Job))
        {
            var list = job.OrderBy(r => r.StartedAtSeconds).ToList();
            for (var i = 0; i < list.Count; i++)
            {
                for (var j = i + 1; j < list.Count && list[j].StartedAtSeconds <= list[i].StartedAtSeconds + (list[i].DurationMs / 1000) + 1; j++)
                {
                    var (a, b) = (list[i], list[j]);
                    if (a.Instance == b.Instance)
                    {
                        continue;
                    }
                    // Each started somewhere in [stamp, stamp + 1 s): they certainly overlapped when each one's
                    // earliest end comes after the other's latest start.
                    if ((a.StartedAtSeconds * 1000) + a.DurationMs > (b.StartedAtSeconds + 1) * 1000 &&
                        (b.StartedAtSeconds * 1000) + b.DurationMs > (a.StartedAtSeconds + 1) * 1000)
                    {
                        violations.Add($"{job.Key} ran on {a.Instance} (from {a.StartedAtSeconds} s, {a.DurationMs} ms) and on {b.Instance} (from {b.StartedAtSeconds} s, {b.DurationMs} ms) at once");
                    }
                }
            }
        }
        return new RuleResult("no-job-on-two-nodes-at-once", "no Quartz job ran on two nodes at once",
            [Count("runs seen", runs.Count), Count("jobs", runs.Select(r => r.Job).Distinct().Count()),
             Count("nodes", runs.Select(r => r.Instance).Distinct().Count()), Count("overlapping runs", violations.Count)],
            violations);
    }
    /// <summary>
    /// While the PostgreSQL primary switches (from the fault until it is healed), the only failure a
    /// client may see is 503 with Retry-After: no 500, 502 or 504, no dropped connection and no request
    /// left hanging past the client's timeout.
    /// </summary>
    private static RuleResult SwitchAnswers(List<Operation> ops, IReadOnlyList<Fault> faults)
    {
        var windows = faults.Where(f => Nemesis.IsPrimarySwitch(f.Kind)).ToList();
        var violations = new List<string>();
        long during = 0, unavailable = 0, slowest = 0;
        foreach (var op in ops)
        {
            var window = windows.FirstOrDefault(f => op.InvokeMs >= f.StartMs && op.InvokeMs <= f.EndMs);
            if (window is null)
            {
                continue;
            }
            during++;
            if (op.Status is not null)
            {
                slowest = Math.Max(slowest, op.CompleteMs - op.InvokeMs);
            }
            if (op.Status == 503 && op.RetryAfter == true)
            {
                unavailable++;
            }
            else if (op.Status is null || op.Status >= 500)
            {
                violations.Add($"{op} during fault {window.Number} ({window.Kind} {window.Target})" + (op.Status == 503 ? " without Retry-After" : ""));
            }
        }
        return new RuleResult("primary-switch-answers", "while the primary switched, every failure was a 503 with Retry-After; nothing hung or dropped",
            [Count("switches", windows.Count), Count("operations during them", during), Count("503 with Retry-After", unavailable), Count("slowest answer ms", slowest),
             Count("other failures", violations.Count)],
            violations);
    }
}
