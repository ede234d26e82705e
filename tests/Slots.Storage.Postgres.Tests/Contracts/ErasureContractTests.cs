using Slots.Testing.Contracts.Retention;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class ErasureContractTests(PostgresBackend backend) : ErasureContract<PostgresBackend>(backend);
