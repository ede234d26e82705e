using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class PairCancelContractTests(SqlServerBackend backend) : PairCancelContract<SqlServerBackend>(backend);
