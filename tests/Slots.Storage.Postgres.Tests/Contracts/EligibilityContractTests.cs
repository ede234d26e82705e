using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class EligibilityContractTests(PostgresBackend backend) : EligibilityContract<PostgresBackend>(backend);
