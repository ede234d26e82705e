using System.Text.Json.Nodes;
using CsCheck;
using Microsoft.OpenApi;

namespace Slots.OpenApi.Tests.Document;

/// <summary>
/// Drives the API from its document alone: generated valid requests for every operation, then each
/// stated constraint broken in turn, every answer checked against the statuses and schemas the
/// document lists. Gaps are collected (one line per operation, place and kind, with the first
/// example and a count) rather than thrown at the first, so one run lists everything to fix.
/// </summary>
public sealed class Exploration(ApiDocument document, HttpClient client, string adminKey, DateOnly today, ulong seed)
{
    private readonly PCG _pcg = new(27, seed);
    private readonly Resources _resources = new();
    private readonly SortedDictionary<string, (string Example, int Count)> _gaps = new(StringComparer.Ordinal);
    private readonly SortedDictionary<string, int> _notes = new(StringComparer.Ordinal);
    private readonly Dictionary<string, Call> _accepted = new(StringComparer.Ordinal);

    public IEnumerable<string> Gaps => _gaps.Select(g => g.Value.Count == 1 ? $"{g.Key}\n      e.g. {g.Value.Example}" : $"{g.Key} ({g.Value.Count} times)\n      e.g. {g.Value.Example}");

    public IEnumerable<string> Notes => _notes.Select(n => $"{n.Key}: {n.Value}");

    /// <summary>Rounds of one valid request per operation, producers of real resources first.</summary>
    public async Task ValidRoundsAsync(int rounds, CancellationToken ct)
    {
        var ordered = document.Operations.OrderBy(o => Resources.Rank(o.Id)).ToList();
        for (var round = 0; round < rounds; round++)
        {
            foreach (var operation in ordered)
            {
                var call = Valid(operation, full: false);
                var answer = await SendAsync(call, ct);
                Check(call, answer, "valid request");
                if (answer.Status is >= 200 and < 300)
                {
                    _accepted.TryAdd(operation.Id, call);
                }
                var outcome = $"{operation.Name} valid request → {answer.Status}{Code(answer)}";
                _notes[outcome] = _notes.GetValueOrDefault(outcome) + 1;
            }
        }
    }

    /// <summary>Every constraint of every operation broken once, on a valid request naming real resources.</summary>
    public async Task BreaksAsync(CancellationToken ct)
    {
        foreach (var operation in document.Operations.OrderBy(o => Resources.Rank(o.Id)))
        {
            // a request the API took, where one was: then only the break can be what a 400 is about
            var accepted = _accepted.TryGetValue(operation.Id, out var taken);
            var baseline = accepted ? Fresh(taken!) : Valid(operation, full: true);
            var caveat = accepted ? "" : " (no generated valid request of it got a 2xx, so the request broken here may be refused for other fields too)";
            foreach (var broken in ConstraintBreaks.For(baseline, today, _pcg).ToList())
            {
                if (broken.Kind == BreakKind.Value && SelfCheck(broken) is { } unbroken)
                {
                    Gap($"{operation.Name} {broken.Target} [{broken.Constraint}]: the generated break is not one by the document's own schema ({unbroken})", broken.Call.Describe());
                    continue;
                }
                var answer = await SendAsync(broken.Call, ct);
                Check(broken.Call, answer, $"{broken.Target} broken");
                Expect(operation, broken, answer, caveat);
            }
        }
    }

    private void Expect(Operation operation, Break broken, Answer answer, string caveat)
    {
        var place = $"{operation.Name} {broken.Target} [{broken.Constraint}]";
        var sent = $"sent {broken.Call.Describe()} → {answer.Summary()}";
        switch (broken.Kind)
        {
            case BreakKind.ContentType:
                var wanted = operation.Documents(415) ? 415 : 400;
                if (answer.Status != wanted)
                {
                    Gap($"{place}: expected {wanted}, got {answer.Status}", sent);
                }
                return;
            case BreakKind.MissingBody:
                if (answer.Status is not (400 or 415) || !operation.Documents(answer.Status))
                {
                    Gap($"{place}: expected a documented 400 or 415, got {answer.Status}", sent);
                }
                return;
        }
        if (!operation.Documents(400))
        {
            if (answer.Status is < 400 or >= 500 || !operation.Documents(answer.Status))
            {
                Gap($"{place}: the operation documents no 400; expected a documented 4xx, got {answer.Status}", sent);
            }
            return;
        }
        if (answer.Status != 400)
        {
            Gap($"{place}: expected 400, got {answer.Status}{Code(answer)}", sent);
            return;
        }
        if (answer.MediaType != "application/problem+json")
        {
            Gap($"{place}: the 400 is {answer.MediaType ?? "without a content type"}, not application/problem+json", sent);
            return;
        }
        var errors = answer.Json()?["errors"] as JsonObject;
        if (errors is null || broken.Field is not null && !errors.Any(e => Names(e.Key, broken.Field)))
        {
            Gap($"{place}: the 400's errors do not name {broken.Field ?? "anything"}{caveat}", sent);
        }
    }

    /// <summary>An error key names a field when they agree ignoring case, a "$." prefix and item indexes, or one holds the other.</summary>
    private static bool Names(string key, string field)
    {
        static string Plain(string s) => System.Text.RegularExpressions.Regex.Replace(s.ToLowerInvariant().TrimStart('$').TrimStart('.'), @"\[\d*\]", "");
        var (k, f) = (Plain(key), Plain(field));
        return k == f || f.StartsWith(k + ".", StringComparison.Ordinal) || k.StartsWith(f + ".", StringComparison.Ordinal);
    }

    /// <summary>The document's own verdict on a break: null when its schema rejects the broken value, as it should.</summary>
    private string? SelfCheck(Break broken)
    {
        if (broken.Constraint is "required" or "format int32")
        {
            return null;
        }
        var operation = broken.Call.Operation;
        var parameter = operation.Parameters.FirstOrDefault(p => broken.Target == $"{p.In.ToString().ToLowerInvariant()} {p.Name}");
        var errors = parameter is not null
            ? document.Validate(parameter.SchemaPointer, Typed(parameter, broken.Call.Parameters.GetValueOrDefault(parameter)))
            : document.Validate(operation.Body!.Value.Location, broken.Call.Body);
        return errors.Count > 0 ? null : "it validates";
    }

    /// <summary>
    /// A request of the operation valid by its document: parameters and body drawn from their
    /// schemas by CsCheck, with members naming real resources taken from <see cref="Resources"/>.
    /// </summary>
    private Call Valid(Operation operation, bool full)
    {
        var known = _resources.Draw(operation.Id, _pcg);
        var call = new Call(operation);
        foreach (var parameter in operation.Parameters)
        {
            if (known[parameter.Name] is { } real && document.Validate(parameter.SchemaPointer, Typed(parameter, real)).Count == 0)
            {
                call.Parameters[parameter] = real.DeepClone();
                call.Seeded.Add(parameter.Name);
            }
            else if (parameter.Required || full || _pcg.Next(2) == 0)
            {
                call.Parameters[parameter] = ValidValues.For(parameter.Schema, today, full).Generate(_pcg, null, out _);
            }
        }
        if (operation.Body is { } body)
        {
            var value = ValidValues.For(body.Schema, today, full).Generate(_pcg, null, out _);
            if (value is JsonObject obj)
            {
                foreach (var name in Schemas.Members(body.Schema).Properties.Keys)
                {
                    if (known[name] is { } real)
                    {
                        obj[name] = real.DeepClone();
                    }
                }
            }
            (call.HasBody, call.Body, call.ContentType) = (true, value, body.MediaType);
            if (document.Validate(body.Location, value) is { Count: > 0 } errors)
            {
                Gap($"{operation.Name} body: a generated valid body is rejected by the document's own schema ({string.Join("; ", errors.Take(3))})", call.Describe());
            }
        }
        return call;
    }

    /// <summary>An accepted request again, its drawn parameters drawn anew (an Idempotency-Key is not reused for another body).</summary>
    private Call Fresh(Call accepted)
    {
        var call = accepted.Copy();
        foreach (var parameter in accepted.Parameters.Keys.Where(p => !accepted.Seeded.Contains(p.Name)))
        {
            call.Parameters[parameter] = ValidValues.For(parameter.Schema, today, full: true).Generate(_pcg, null, out _);
        }
        return call;
    }

    /// <summary>A parameter's text as the JSON value its schema speaks of (a number for an integer parameter), for validation.</summary>
    private static JsonNode? Typed(Parameter parameter, JsonNode? value)
    {
        var types = Schemas.Types(Schemas.Effective(parameter.Schema));
        var text = Call.Wire(value);
        return (types.Contains(JsonSchemaType.Integer) || types.Contains(JsonSchemaType.Number))
            && decimal.TryParse(text, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var number)
            ? JsonValue.Create(number)
            : types.Contains(JsonSchemaType.Boolean) && bool.TryParse(text, out var flag) ? JsonValue.Create(flag)
            : value?.DeepClone();
    }

    private async Task<Answer> SendAsync(Call call, CancellationToken ct)
    {
        using var request = call.ToHttp(document, adminKey);
        using var response = await client.SendAsync(request, ct);
        var answer = await Answer.ReadAsync(response, ct);
        if (answer.Status is >= 200 and < 300)
        {
            _resources.Learn(call.Operation.Id, call.Body as JsonObject, answer.Json());
        }
        return answer;
    }

    /// <summary>What every answer owes the document: under 500, a listed status, a listed content type, a body its schema accepts.</summary>
    private void Check(Call call, Answer answer, string what)
    {
        var operation = call.Operation;
        var sent = $"{what}: sent {call.Describe()} → {answer.Summary()}";
        if (answer.Status >= 500)
        {
            Gap($"{operation.Name}: answered {answer.Status}{Code(answer)}", sent);
            return;
        }
        var key = operation.Statuses.Contains(answer.StatusText) ? answer.StatusText
            : operation.Statuses.Contains($"{answer.Status / 100}XX") ? $"{answer.Status / 100}XX"
            : operation.Statuses.Contains("default") ? "default" : null;
        if (key is null)
        {
            Gap($"{operation.Name}: answered {answer.Status}{Code(answer)}, a status it does not document (it documents {string.Join(", ", operation.Statuses)})", sent);
            return;
        }
        var content = operation.Model.Responses![key].Content;
        if (content is null || content.Count == 0)
        {
            if (answer.Text.Length > 0)
            {
                Gap($"{operation.Name} {key}: a body where the document lists no content", sent);
            }
            return;
        }
        if (answer.MediaType is null || !content.ContainsKey(answer.MediaType))
        {
            Gap($"{operation.Name} {key}: content type {answer.MediaType ?? "(none)"}, not one it documents ({string.Join(", ", content.Keys)})", sent);
            return;
        }
        if (!answer.MediaType.EndsWith("json", StringComparison.Ordinal))
        {
            // A documented text answer (the roster's CSV): its type was checked above; its schema is a string.
            return;
        }
        var json = answer.Json();
        if (json is null)
        {
            Gap($"{operation.Name} {key} {answer.MediaType}: the body is not JSON", sent);
            return;
        }
        var pointer = $"{operation.Location}/responses/{key}/content/{ApiDocument.Escape(answer.MediaType)}/schema";
        foreach (var error in document.Validate(pointer, json).Take(4))
        {
            // one line per place in the schema, whichever item of a list showed it
            var place = System.Text.RegularExpressions.Regex.Replace(error, @"/\d+(?=[/:])", "/*");
            Gap($"{operation.Name} {key} {answer.MediaType}: the body breaks its schema at {place}", sent);
        }
    }

    /// <summary>A problem's machine-readable code, for messages.</summary>
    private static string Code(Answer answer) =>
        answer.MediaType == "application/problem+json" && answer.Json() is JsonObject { } body
            && body["code"] is JsonValue code && code.TryGetValue<string>(out var text) ? $" {text}" : "";

    private void Gap(string what, string example)
    {
        var (first, count) = _gaps.GetValueOrDefault(what);
        _gaps[what] = (first ?? example, count + 1);
    }
}
