using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class ServiceCatalogueContractTests(PostgresBackend backend) : ServiceCatalogueContract<PostgresBackend>(backend);
