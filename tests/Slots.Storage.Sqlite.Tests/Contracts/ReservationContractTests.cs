using Slots.Testing.Contracts.Reservations;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class ReservationContractTests(Slots.Testing.Web.SqliteBackend backend) : ReservationContract<Slots.Testing.Web.SqliteBackend>(backend);
