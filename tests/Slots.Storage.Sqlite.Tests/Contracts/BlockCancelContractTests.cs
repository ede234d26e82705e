using Slots.Testing.Contracts.Staff;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class BlockCancelContractTests(Slots.Testing.Web.SqliteBackend backend) : BlockCancelContract<Slots.Testing.Web.SqliteBackend>(backend);
