using Slots.Testing.Contracts.Staff;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class StaffContractTests(Slots.Testing.Web.SqliteBackend backend) : StaffContract<Slots.Testing.Web.SqliteBackend>(backend);
