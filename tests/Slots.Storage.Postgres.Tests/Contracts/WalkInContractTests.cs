using Slots.Testing.Contracts.Staff;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class WalkInContractTests(PostgresBackend backend) : WalkInContract<PostgresBackend>(backend);
