using Slots.Testing.Contracts.Reservations;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class ColdPathContractTests(SqlServerBackend backend) : ColdPathContract<SqlServerBackend>(backend);
