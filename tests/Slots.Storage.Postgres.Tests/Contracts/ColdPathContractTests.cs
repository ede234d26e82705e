using Slots.Testing.Contracts.Reservations;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class ColdPathContractTests(PostgresBackend backend) : ColdPathContract<PostgresBackend>(backend);
