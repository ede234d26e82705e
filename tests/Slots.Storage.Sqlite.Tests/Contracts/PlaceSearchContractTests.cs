using Slots.Testing.Contracts.Places;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class PlaceSearchContractTests(Slots.Testing.Web.SqliteBackend backend) : PlaceSearchContract<Slots.Testing.Web.SqliteBackend>(backend);
