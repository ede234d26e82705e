using Slots.Testing.Contracts.Places;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class PlaceChangesContractTests(PostgresBackend backend) : PlaceChangesContract<PostgresBackend>(backend);
