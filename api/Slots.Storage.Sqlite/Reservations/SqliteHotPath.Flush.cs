namespace Slots.Storage.Sqlite;

public sealed partial class SqliteHotPath
{
    /// <summary>
    /// Drains up to <paramref name="batchSize"/> change records, then new bookings marked on their
    /// hot rows, into the disk reservations, oldest first, inside the writer's transaction: the flush
    /// queues with the bookings instead of competing with them for the file lock (where the writer,
    /// always busy under load, would starve it). Changes are applied one by one in id order, so the disk table passes through
    /// the states the hot one did and its unique index on active seats always holds.
    /// </summary>
    public int FlushChanges(int batchSize)
    {
        var batch = new List<object[]>(batchSize);
        using (var read = Command(Sql.ReadChanges, ("$n", batchSize)).ExecuteReader())
        {
            while (read.Read())
            {
                var row = new object[read.FieldCount];
                read.GetValues(row);
                batch.Add(row);
            }
        }
        foreach (var c in batch)
        {
            Command(Sql.ApplyChange, ("$id", c[0]), ("$kind", c[1]), ("$code", c[2]), ("$place", c[3]), ("$day", c[4]),
                ("$minute", c[5]), ("$seat", c[6]), ("$person", c[7]), ("$phone", c[8]), ("$name", c[9]), ("$language", c[10]),
                ("$created", c[11]), ("$at", c[12]), ("$service", c[13])).ExecuteNonQuery();
        }
        if (batch.Count > 0)
        {
            Command(Sql.DeleteChanges, ("$last", batch[^1][0])).ExecuteNonQuery();
        }
        if (batch.Count == batchSize)
        {
            return batch.Count; // new bookings wait until every change before them is on the disk
        }
        var room = batchSize - batch.Count;
        Command(Sql.FlushPending, ("$n", room)).ExecuteNonQuery();
        return batch.Count + Command(Sql.UnmarkPending, ("$n", room)).ExecuteNonQuery();
    }
}
