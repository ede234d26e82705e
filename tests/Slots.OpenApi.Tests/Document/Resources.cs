using System.Text.Json.Nodes;
using CsCheck;

namespace Slots.OpenApi.Tests.Document;

/// <summary>
/// Real resources learnt from earlier answers, so a generated request can name a place, a free slot,
/// a reservation or an opening that exists. These are the links the document does not state yet
/// (OpenAPI `links`): which operation's answer yields which record, and which operations use it. A
/// record's members are named as the document names the parameters and body fields they fill; the
/// shapes still come from the document, and a member the operation does not have is never sent.
/// </summary>
public sealed class Resources
{
    private const int Kept = 200;

    /// <summary>The records each operation draws on; a trailing ! takes the record out of its pool.</summary>
    private static readonly Dictionary<string, string[]> Uses = new(StringComparer.Ordinal)
    {
        ["GetPlace"] = ["place"],
        ["GetAvailability"] = ["place"],
        ["Reserve"] = ["slot", "person"],
        ["FindReservation"] = ["reservation"],
        ["RescheduleReservation"] = ["reservation", "slot"],
        ["CancelReservation"] = ["reservation!"],
        ["ReadPersonalData"] = ["reservation"],
        ["ErasePersonalData"] = ["reservation!"],
        ["JoinWaitingRoom"] = ["opening", "person"],
        ["GetOpening"] = ["opening"],
        ["CloseOpening"] = ["opening!"],
        // A block cancel closes slots and cancels bookings: it gets a place this run created, whose
        // slots and bookings no other operation draws on, and runs last.
        ["CancelBlock"] = ["new-place!"],
        ["JoinWaitingList"] = ["person"],
    };

    private readonly Dictionary<string, List<JsonObject>> _pools = new(StringComparer.Ordinal);
    private int _people;

    /// <summary>
    /// The order operations run in: those producing records before those using them, takers last,
    /// the document's order otherwise.
    /// </summary>
    public static int Rank(string operationId) =>
        !Uses.TryGetValue(operationId, out var uses) ? 0
        : uses.Any(u => u.EndsWith('!')) ? 3
        : uses.Contains("reservation") ? 2
        : 1;

    /// <summary>The records for one request of the operation, members by parameter or field name.</summary>
    public JsonObject Draw(string operationId, PCG pcg)
    {
        var values = new JsonObject();
        foreach (var use in Uses.GetValueOrDefault(operationId) ?? [])
        {
            var record = use == "person" ? Person(pcg) : Pick(use.TrimEnd('!'), pcg, take: use.EndsWith('!'));
            foreach (var (name, value) in record ?? [])
            {
                values[name] = value?.DeepClone();
            }
        }
        return values;
    }

    /// <summary>What a 2xx answer teaches: the records it names, from the answer and from the request that got it.</summary>
    public void Learn(string operationId, JsonObject? requestBody, JsonNode? answer)
    {
        switch (operationId)
        {
            case "ListPlaces":
                foreach (var item in answer?["items"]?.AsArray() ?? [])
                {
                    Add("place", new JsonObject { ["id"] = item?["id"]?.DeepClone() });
                }
                break;
            case "GetPlace":
                Add("place", new JsonObject { ["id"] = answer?["id"]?.DeepClone() });
                break;
            case "CreatePlace":
                Add("place", new JsonObject { ["id"] = answer?["id"]?.DeepClone() });
                Add("new-place", new JsonObject { ["placeId"] = answer?["id"]?.DeepClone() });
                break;
            case "GetAvailability":
                foreach (var day in answer?["days"]?.AsArray() ?? [])
                {
                    foreach (var slot in day?["slots"]?.AsArray() ?? [])
                    {
                        if (slot?["free"]?.GetValue<int>() > 0)
                        {
                            Add("slot", new JsonObject { ["placeId"] = answer!["placeId"]?.DeepClone(), ["day"] = day!["day"]?.DeepClone(), ["time"] = slot["time"]?.DeepClone() });
                        }
                    }
                }
                break;
            case "Reserve":
                Add("reservation", new JsonObject
                {
                    ["code"] = answer?["code"]?.DeepClone(),
                    ["Slots-Phone"] = requestBody?["phone"]?.DeepClone(),
                    ["Slots-National-Id"] = requestBody?["nationalId"]?.DeepClone(),
                });
                break;
            case "CreateOpening" or "GetOpening":
                Add("opening", new JsonObject { ["id"] = answer?["id"]?.DeepClone() });
                break;
            case "ListOpenings" or "ListOpeningsForStaff":
                foreach (var item in answer?.AsArray() ?? [])
                {
                    Add("opening", new JsonObject { ["id"] = item?["id"]?.DeepClone() });
                }
                break;
        }
    }

    private JsonObject? Pick(string pool, PCG pcg, bool take)
    {
        if (!_pools.TryGetValue(pool, out var records) || records.Count == 0)
        {
            return null;
        }
        var index = (int)pcg.Next((uint)records.Count);
        var record = records[index];
        if (take)
        {
            records.RemoveAt(index);
        }
        return record;
    }

    /// <summary>A new person per booking (one active booking each): a Slovak mobile number and a national id, unique in the run.</summary>
    private JsonObject Person(PCG pcg)
    {
        var n = ++_people;
        return new JsonObject
        {
            ["name"] = $"Contract Person {(char)('A' + (int)pcg.Next(26))}{n}",
            ["phone"] = $"+4219{n % 10_000:0000}{pcg.Next(10_000):0000}",
            ["nationalId"] = $"{10 + pcg.Next(90)}{n:00000000}",
        };
    }

    private void Add(string pool, JsonObject record)
    {
        if (record.Any(m => m.Value is null))
        {
            return;
        }
        if (!_pools.TryGetValue(pool, out var records))
        {
            _pools[pool] = records = [];
        }
        if (!records.Any(r => JsonNode.DeepEquals(r, record)))
        {
            records.Add(record);
        }
        if (records.Count > Kept)
        {
            records.RemoveAt(0);
        }
    }
}
