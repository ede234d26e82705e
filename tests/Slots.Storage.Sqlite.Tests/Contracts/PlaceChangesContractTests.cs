using Slots.Testing.Contracts.Places;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class PlaceChangesContractTests(Slots.Testing.Web.SqliteBackend backend) : PlaceChangesContract<Slots.Testing.Web.SqliteBackend>(backend);
