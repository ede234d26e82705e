using System.Globalization;

namespace Slots.LoadTest.Chaos;

/// <summary>One rule: what it says, what was counted, and every offending operation or row.</summary>
public sealed record RuleResult(string Name, string Says, IReadOnlyList<KeyValuePair<string, long>> Counts, IReadOnlyList<string> Violations)
{
    public bool Passed => Violations.Count == 0;
}

/// <summary>Every rule's result, with the two figures the report leads with.</summary>
public sealed record CheckReport(IReadOnlyList<RuleResult> Rules, long Lost, long Doubled)
{
    /// <summary>How many offending lines each rule prints; the count says how many there were.</summary>
    public const int ShownPerRule = 20;

    public bool Passed => Rules.All(r => r.Passed);

    public RuleResult this[string name] => Rules.Single(r => r.Name == name);

    public void Print(TextWriter output)
    {
        foreach (var rule in Rules)
        {
            var counts = string.Join(", ", rule.Counts.Select(c => string.Create(CultureInfo.InvariantCulture, $"{c.Key} {c.Value}")));
            output.WriteLine($"{(rule.Passed ? "PASS" : "FAIL")}  {rule.Name}: {rule.Says}");
            output.WriteLine($"      {counts}");
            foreach (var v in rule.Violations.Take(ShownPerRule))
            {
                output.WriteLine($"      ✗ {v}");
            }
            if (rule.Violations.Count > ShownPerRule)
            {
                output.WriteLine($"      … and {rule.Violations.Count - ShownPerRule} more");
            }
        }
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{(Passed ? "PASSED" : "FAILED")}: {Rules.Count(r => r.Passed)}/{Rules.Count} rules hold; lost {Lost}, doubled {Doubled}"));
    }
}
