namespace Slots.Catalogue;

/// <summary>Well-known service ids.</summary>
public static class ServiceIds
{
    /// <summary>
    /// The service every place offers from the start and every booking made before services existed
    /// holds: what a writer that names no service writes (the service_id column's DEFAULT).
    /// </summary>
    public const int Default = 1;

    /// <summary>The code of <see cref="Default"/>.</summary>
    public const string DefaultCode = "default";
}
