using Slots.Testing.Contracts.Places;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class PlaceCapacityContractTests(SqlServerBackend backend) : PlaceCapacityContract<SqlServerBackend>(backend);
