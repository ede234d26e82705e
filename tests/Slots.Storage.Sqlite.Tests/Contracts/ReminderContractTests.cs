using Slots.Testing.Contracts.Reminders;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class ReminderContractTests(Slots.Testing.Web.SqliteBackend backend) : ReminderContract<Slots.Testing.Web.SqliteBackend>(backend);
