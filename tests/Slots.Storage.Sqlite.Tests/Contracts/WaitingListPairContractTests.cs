using Slots.Testing.Contracts.WaitingList;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class WaitingListPairContractTests(Slots.Testing.Web.SqliteBackend backend) : WaitingListPairContract<Slots.Testing.Web.SqliteBackend>(backend);
