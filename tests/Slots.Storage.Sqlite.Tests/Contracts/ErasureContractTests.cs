using Slots.Testing.Contracts.Retention;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class ErasureContractTests(Slots.Testing.Web.SqliteBackend backend) : ErasureContract<Slots.Testing.Web.SqliteBackend>(backend);
