using Slots.Testing.Contracts.WaitingList;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class WaitingListContractTests(PostgresBackend backend) : WaitingListContract<PostgresBackend>(backend);
