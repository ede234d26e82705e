using Slots.Testing.Contracts.Staff;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class MachineKeyContractTests(PostgresBackend backend) : MachineKeyContract<PostgresBackend>(backend);
