using System.Globalization;

namespace Slots.Stack.Tests.Infrastructure;

/// <summary>The numbers a test saw (shares, recovery times), written to the test output for the record.</summary>
public static class Figures
{
    public static void Report(FormattableString line)
    {
        var text = line.ToString(CultureInfo.InvariantCulture);
        TestContext.Current.TestOutputHelper?.WriteLine(text);
        File.AppendAllText(Path.Combine(StackProcesses.LogFolder, "figures.txt"), text + Environment.NewLine);
    }
}
