using Slots.Testing.Contracts.Reservations;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class ReservationContractTests(PostgresBackend backend) : ReservationContract<PostgresBackend>(backend);
