using Slots.Testing.Contracts.Staff;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class StaffContractTests(SqlServerBackend backend) : StaffContract<SqlServerBackend>(backend);
