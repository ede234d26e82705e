namespace Slots.Api.Places;

/// <summary>What a service's code may be, as services.code holds it on every backend: [a-z0-9-]{1,32}.</summary>
internal static class ServiceCodes
{
    public static bool IsValid(string? code) =>
        code is { Length: >= 1 and <= 32 } && code.All(c => c is (>= 'a' and <= 'z') or (>= '0' and <= '9') or '-');
}
