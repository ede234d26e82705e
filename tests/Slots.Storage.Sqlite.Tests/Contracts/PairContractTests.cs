using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class PairContractTests(Slots.Testing.Web.SqliteBackend backend) : PairContract<Slots.Testing.Web.SqliteBackend>(backend);
