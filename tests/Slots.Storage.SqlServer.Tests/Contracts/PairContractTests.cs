using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class PairContractTests(SqlServerBackend backend) : PairContract<SqlServerBackend>(backend);
