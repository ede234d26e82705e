using Slots.Testing.Contracts.Finders;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class FindersContractTests(PostgresBackend backend) : FindersContract<PostgresBackend>(backend);
