using Slots.Testing.Contracts.Reservations;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class ColdPathContractTests(Slots.Testing.Web.SqliteBackend backend) : ColdPathContract<Slots.Testing.Web.SqliteBackend>(backend);
