using Slots.Api.Tests.SqlServer;

namespace Slots.Api.Tests.Admission;

/// <summary>The waiting room on SQL Server: runs where SLOTS_SQLSERVER names a server, skipped elsewhere.</summary>
public sealed class SqlServerAdmissionContract(SqlServerBackend backend) : AdmissionContract<SqlServerBackend>(backend);
