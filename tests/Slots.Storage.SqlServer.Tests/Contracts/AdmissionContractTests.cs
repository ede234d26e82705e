using Slots.Testing.Contracts.Admission;

namespace Slots.Storage.SqlServer.Tests.Contracts;

/// <summary>Runs where SLOTS_SQLSERVER names a server; skipped elsewhere, saying so.</summary>
public sealed class AdmissionContractTests(SqlServerBackend backend) : AdmissionContract<SqlServerBackend>(backend);
