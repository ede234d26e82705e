using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class ServiceCatalogueContractTests(Slots.Testing.Web.SqliteBackend backend) : ServiceCatalogueContract<Slots.Testing.Web.SqliteBackend>(backend);
