using Slots.Testing.Contracts.WaitingList;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class WaitingListPairContractTests(PostgresBackend backend) : WaitingListPairContract<PostgresBackend>(backend);
