using System.ComponentModel;

namespace Slots.Api.Finders;

/// <summary>The bulk publication manifest of SMART Scheduling Links (the FHIR bulk data $bulk-publish shape).</summary>
public sealed record BulkPublishManifestDto(
    [property: Description("When the published data was read (FHIR instant): pass it back as _since to get only what changed after it.")]
    string TransactionTime,
    [property: Description("The full URL of this manifest, as asked.")] string Request,
    [property: Description("One entry per NDJSON file: Location, Schedule and Slot files, one of each per region.")]
    IReadOnlyList<BulkPublishOutputDto> Output,
    [property: Description("Files of OperationOutcome errors; always empty.")] IReadOnlyList<BulkPublishOutputDto> Error);

public sealed record BulkPublishOutputDto(
    [property: Description("Location, Schedule or Slot.")] string Type,
    [property: Description("The full URL of the NDJSON file (with _since when the manifest was asked with it).")] string Url,
    [property: Description("Hints for choosing files: state lists the region of the file's places.")] BulkPublishExtensionDto? Extension);

public sealed record BulkPublishExtensionDto([property: Description("The region of the file's places.")] IReadOnlyList<string> State);
