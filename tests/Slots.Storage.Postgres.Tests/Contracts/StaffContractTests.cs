using Slots.Testing.Contracts.Staff;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class StaffContractTests(PostgresBackend backend) : StaffContract<PostgresBackend>(backend);
