using CsvHelper;

namespace Slots.Api;

/// <summary>
/// The CSV files the API hands out (the roster, a batch of invitation codes): RFC 4180 through
/// CsvHelper (CRLF, quotes, commas and line breaks inside a field quoted), UTF-8 with a BOM, so
/// spreadsheet programs show Slovak letters right; a field starting with = + - @ is escaped so a
/// spreadsheet never runs it as a formula.
/// </summary>
internal static class CsvFile
{
    public static byte[] Of(string[] header, IEnumerable<string[]> records)
    {
        using var buffer = new MemoryStream();
        using (var csv = CsvWriter.Create(buffer, new CsvWriterOptions { WriteByteOrderMark = true, Injection = CsvInjection.Escape }, leaveOpen: true))
        {
            csv.WriteHeader(header);
            foreach (var record in records)
            {
                csv.WriteRecord(record);
            }
        }
        return buffer.ToArray();
    }
}
