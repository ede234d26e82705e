using Slots.Testing.Contracts.Reminders;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class ReminderContractTests(SqlServerBackend backend) : ReminderContract<SqlServerBackend>(backend);
