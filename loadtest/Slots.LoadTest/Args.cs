using System.Globalization;

namespace Slots.LoadTest;

/// <summary>"--name value" pairs with typed, bounded getters; every problem is collected, none thrown halfway.</summary>
public sealed class Args
{
    private readonly Dictionary<string, string> _values = new(StringComparer.OrdinalIgnoreCase);
    private readonly HashSet<string> _used = new(StringComparer.OrdinalIgnoreCase);

    public List<string> Errors { get; } = [];

    public Args(IEnumerable<string> args)
    {
        string? name = null;
        foreach (var arg in args)
        {
            if (arg.StartsWith("--", StringComparison.Ordinal))
            {
                if (name is not null)
                {
                    _values[name] = "true"; // a bare switch
                }
                name = arg[2..];
            }
            else if (name is not null)
            {
                _values[name] = arg;
                name = null;
            }
            else
            {
                Errors.Add($"Unexpected argument '{arg}'.");
            }
        }
        if (name is not null)
        {
            _values[name] = "true";
        }
    }

    public string? Text(string name, string? fallback = null)
    {
        _used.Add(name);
        return _values.TryGetValue(name, out var v) ? v : fallback;
    }

    public int Whole(string name, int fallback, int min, int max) => (int)Number(name, fallback, min, max);

    public double Number(string name, double fallback, double min, double max)
    {
        var text = Text(name);
        if (text is null)
        {
            return fallback;
        }
        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || value < min || value > max)
        {
            Errors.Add($"--{name} must be a number from {min} to {max}; got '{text}'.");
            return fallback;
        }
        return value;
    }

    public bool Bool(string name, bool fallback = false)
    {
        var text = Text(name);
        if (text is null)
        {
            return fallback;
        }
        if (!bool.TryParse(text, out var value))
        {
            Errors.Add($"--{name} must be true or false; got '{text}'.");
            return fallback;
        }
        return value;
    }

    public T Enum<T>(string name, T fallback) where T : struct, Enum
    {
        var text = Text(name);
        if (text is null)
        {
            return fallback;
        }
        if (!System.Enum.TryParse<T>(text, ignoreCase: true, out var value) || !System.Enum.IsDefined(value))
        {
            Errors.Add($"--{name} must be one of {string.Join(", ", System.Enum.GetNames<T>())}; got '{text}'.");
            return fallback;
        }
        return value;
    }

    /// <summary>Options given but never read: most likely a typo, which must not pass silently.</summary>
    public void RejectUnknown()
    {
        foreach (var name in _values.Keys.Where(k => !_used.Contains(k)))
        {
            Errors.Add($"Unknown option --{name}.");
        }
    }
}
