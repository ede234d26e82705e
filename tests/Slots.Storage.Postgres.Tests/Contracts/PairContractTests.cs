using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class PairContractTests(PostgresBackend backend) : PairContract<PostgresBackend>(backend);
