using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class PairCancelContractTests(PostgresBackend backend) : PairCancelContract<PostgresBackend>(backend);
