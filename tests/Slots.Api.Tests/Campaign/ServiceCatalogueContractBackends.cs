using Slots.Api.Tests.Infrastructure;
using Slots.Api.Tests.Postgres;

namespace Slots.Api.Tests.Campaign;

public sealed class SqliteServiceCatalogueContract(SqliteBackend backend) : ServiceCatalogueContract<SqliteBackend>(backend);

public sealed class PostgresServiceCatalogueContract(PostgresBackend backend) : ServiceCatalogueContract<PostgresBackend>(backend);

public sealed class SqlServerServiceCatalogueContract(Slots.Api.Tests.SqlServer.SqlServerBackend backend)
    : ServiceCatalogueContract<Slots.Api.Tests.SqlServer.SqlServerBackend>(backend);
