using Slots.Api.Tests.Infrastructure;
using Slots.Api.Tests.Postgres;

namespace Slots.Api.Tests.Places;

public sealed class SqlitePlaceChangesContract(SqliteBackend backend) : PlaceChangesContract<SqliteBackend>(backend);

public sealed class PostgresPlaceChangesContract(PostgresBackend backend) : PlaceChangesContract<PostgresBackend>(backend);

public sealed class SqlServerPlaceChangesContract(Slots.Api.Tests.SqlServer.SqlServerBackend backend)
    : PlaceChangesContract<Slots.Api.Tests.SqlServer.SqlServerBackend>(backend);
