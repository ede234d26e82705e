using Slots.Testing.Contracts.Finders;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class FindersContractTests(Slots.Testing.Web.SqliteBackend backend) : FindersContract<Slots.Testing.Web.SqliteBackend>(backend);
