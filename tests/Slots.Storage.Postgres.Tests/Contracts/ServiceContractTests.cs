using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class ServiceContractTests(PostgresBackend backend) : ServiceContract<PostgresBackend>(backend);
