using Slots.Testing.Contracts.Retention;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class RetentionContractTests(SqlServerBackend backend) : RetentionContract<SqlServerBackend>(backend);
