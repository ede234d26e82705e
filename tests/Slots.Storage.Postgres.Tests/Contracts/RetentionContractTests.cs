using Slots.Testing.Contracts.Retention;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class RetentionContractTests(PostgresBackend backend) : RetentionContract<PostgresBackend>(backend);
