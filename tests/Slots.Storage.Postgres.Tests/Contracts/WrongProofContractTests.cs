using Slots.Testing.Contracts.Reservations;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class WrongProofContractTests(PostgresBackend backend) : WrongProofContract<PostgresBackend>(backend);
