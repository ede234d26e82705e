using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class PairCancelContractTests(Slots.Testing.Web.SqliteBackend backend) : PairCancelContract<Slots.Testing.Web.SqliteBackend>(backend);
