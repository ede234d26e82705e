using Slots.Testing.Contracts.Places;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class PlaceCapacityContractTests(PostgresBackend backend) : PlaceCapacityContract<PostgresBackend>(backend);
