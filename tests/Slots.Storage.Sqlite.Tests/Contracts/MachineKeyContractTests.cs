using Slots.Testing.Contracts.Staff;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class MachineKeyContractTests(Slots.Testing.Web.SqliteBackend backend) : MachineKeyContract<Slots.Testing.Web.SqliteBackend>(backend);
