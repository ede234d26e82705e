// The closing note of `./slots test`: skipped tests counted by reason, and where the time went, per test
// project and for the slowest tests, read from the TRX files `dotnet test --logger trx` wrote. Run: dotnet run tools/test-summary/test-summary.cs -- DIR
// TRX rather than the console log: the projects' console lines interleave, and a skip's reason is not on them.
using System.Globalization;
using System.Xml.Linq;

if (args.Length != 1 || !Directory.Exists(args[0]))
{
    Console.Error.WriteLine("usage: test-summary.cs <folder of .trx files>");
    return 2;
}

XNamespace ns = "http://microsoft.com/schemas/VisualStudio/TeamTest/2010";
var projects = new List<(string Name, TimeSpan Time, int Passed, int Failed, int Skipped)>();
var skips = new List<(string Reason, string Project)>();
var slowest = new List<(TimeSpan Time, string Test)>();
foreach (var file in Directory.EnumerateFiles(args[0], "*.trx"))
{
    var run = XDocument.Load(file).Root!;
    var test = run.Descendants(ns + "UnitTest").FirstOrDefault();
    if (test is null)
    {
        continue; // a project whose tests a filter left out (the stack tests in the first run of ./slots test)
    }
    // The TRX keeps the assembly's path in lower case; a test's full name starts with the project's
    // name as written (each project's root namespace is its name).
    var name = Path.GetFileNameWithoutExtension((string?)test?.Attribute("storage")) ?? Path.GetFileName(file);
    var testName = (string?)test?.Attribute("name") ?? "";
    if (testName.StartsWith(name + ".", StringComparison.OrdinalIgnoreCase))
    {
        name = testName[..name.Length];
    }
    var times = run.Element(ns + "Times");
    var time = times is null ? TimeSpan.Zero : Instant(times, "finish") - Instant(times, "start");
    var results = run.Descendants(ns + "UnitTestResult").ToList();
    var skipped = results.Where(r => (string?)r.Attribute("outcome") == "NotExecuted").ToList();
    foreach (var result in skipped)
    {
        var reason = ((string?)result.Descendants(ns + "Message").FirstOrDefault() ?? "(no reason given)").Trim();
        skips.Add((reason.Replace('\n', ' '), name));
    }
    foreach (var result in results)
    {
        if (TimeSpan.TryParse((string?)result.Attribute("duration"), CultureInfo.InvariantCulture, out var took))
        {
            slowest.Add((took, (string?)result.Attribute("testName") ?? "?"));
        }
    }
    projects.Add((name, time,
        results.Count(r => (string?)r.Attribute("outcome") == "Passed"),
        results.Count(r => (string?)r.Attribute("outcome") is "Failed" or "Error" or "Timeout" or "Aborted"),
        skipped.Count));
}

Console.WriteLine($"--- skipped tests by reason: {skips.Count} ---");
foreach (var group in skips.GroupBy(s => s.Reason).OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal))
{
    var where = string.Join(", ", group.Select(s => s.Project).Distinct().Order(StringComparer.Ordinal));
    Console.WriteLine($"{group.Count(),5}  {Shorter(group.Key, 300)}  [{where}]");
}
Console.WriteLine("--- time per test project (side by side, then the stack tests alone: these add up to more than the wall time) ---");
foreach (var p in projects.OrderByDescending(p => p.Time))
{
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"{p.Time.TotalSeconds,7:F0} s  {p.Name,-32} {p.Passed,5} passed {p.Failed,4} failed {p.Skipped,4} skipped"));
}
// A theory's cases are one result each: the slowest twenty results say which tests hold the wall time.
// A shared fixture's start (a server, a stack) is in no test's time, only in its project's.
Console.WriteLine("--- the 20 slowest tests (a shared fixture's start is counted in its project only) ---");
foreach (var (took, test) in slowest.OrderByDescending(s => s.Time).Take(20))
{
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{took.TotalSeconds,7:F1} s  {Shorter(test, 160)}"));
}
return 0;

static DateTimeOffset Instant(XElement times, string name) =>
    DateTimeOffset.Parse((string)times.Attribute(name)!, CultureInfo.InvariantCulture);

static string Shorter(string text, int length) => text.Length <= length ? text : text[..length] + "…";
