using Slots.Testing.Contracts.Finders;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class FindersContractTests(SqlServerBackend backend) : FindersContract<SqlServerBackend>(backend);
