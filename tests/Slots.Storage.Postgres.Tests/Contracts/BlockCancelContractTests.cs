using Slots.Testing.Contracts.Staff;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class BlockCancelContractTests(PostgresBackend backend) : BlockCancelContract<PostgresBackend>(backend);
