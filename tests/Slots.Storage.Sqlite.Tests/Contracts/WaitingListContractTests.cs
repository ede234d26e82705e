using Slots.Testing.Contracts.WaitingList;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class WaitingListContractTests(Slots.Testing.Web.SqliteBackend backend) : WaitingListContract<Slots.Testing.Web.SqliteBackend>(backend);
