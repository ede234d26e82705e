namespace Slots.Api.Http;

/// <summary>Collects field errors; the request is valid when none were added.</summary>
internal sealed class Validation
{
    private readonly Dictionary<string, List<string>> _errors = new(StringComparer.Ordinal);

    public bool IsValid => _errors.Count == 0;

    public void Add(string field, string message)
    {
        if (!_errors.TryGetValue(field, out var list))
        {
            _errors[field] = list = [];
        }
        list.Add(message);
    }

    public Microsoft.AspNetCore.Http.HttpResults.ValidationProblem ToProblem() =>
        Problem.Invalid(_errors.ToDictionary(e => e.Key, e => e.Value.ToArray(), StringComparer.Ordinal));
}
