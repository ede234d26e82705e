using Slots.Testing.Contracts.Reservations;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class WrongProofContractTests(Slots.Testing.Web.SqliteBackend backend) : WrongProofContract<Slots.Testing.Web.SqliteBackend>(backend);
