using Slots.Testing.Contracts.Reminders;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class ReminderContractTests(PostgresBackend backend) : ReminderContract<PostgresBackend>(backend);
