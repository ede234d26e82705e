using Slots.Testing.Contracts.Staff;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class WalkInContractTests(Slots.Testing.Web.SqliteBackend backend) : WalkInContract<Slots.Testing.Web.SqliteBackend>(backend);
