using System.Globalization;

namespace Slots.Testing;

/// <summary>What the tests' hand-written HTTP/1.1 (Slots.Stack.Tests' RawHttps and HeldUpstream, Slots.LoadTest.Tests'
/// SourceAddressesTests) reads off a message's head.</summary>
public static class Http1
{
    /// <summary>The Content-Length of a message head (its lines, the start line first); 0 without one.</summary>
    public static int ContentLength(IEnumerable<string> headLines) =>
        headLines.Select(l => l.Split(':', 2)).Where(p => p.Length == 2 && p[0].Trim().Equals("Content-Length", StringComparison.OrdinalIgnoreCase))
            .Select(p => int.Parse(p[1].Trim(), CultureInfo.InvariantCulture)).FirstOrDefault();
}
