using Slots.Api.Tests.SqlServer;

namespace Slots.Api.Tests.WaitingRoom;

/// <summary>The waiting room on SQL Server: runs where SLOTS_SQLSERVER names a server, skipped elsewhere.</summary>
public sealed class SqlServerWaitingRoomContract(SqlServerBackend backend) : WaitingRoomContract<SqlServerBackend>(backend);
