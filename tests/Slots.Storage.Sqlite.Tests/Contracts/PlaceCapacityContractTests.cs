using Slots.Testing.Contracts.Places;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class PlaceCapacityContractTests(Slots.Testing.Web.SqliteBackend backend) : PlaceCapacityContract<Slots.Testing.Web.SqliteBackend>(backend);
