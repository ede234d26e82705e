using Slots.Testing.Contracts.WaitingList;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class WaitingListPairContractTests(SqlServerBackend backend) : WaitingListPairContract<SqlServerBackend>(backend);
