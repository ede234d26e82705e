using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class ServiceContractTests(Slots.Testing.Web.SqliteBackend backend) : ServiceContract<Slots.Testing.Web.SqliteBackend>(backend);
