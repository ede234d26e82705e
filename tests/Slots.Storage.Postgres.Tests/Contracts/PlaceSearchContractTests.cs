using Slots.Testing.Contracts.Places;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class PlaceSearchContractTests(PostgresBackend backend) : PlaceSearchContract<PostgresBackend>(backend);
