using Slots.Api.Tests.Postgres;

namespace Slots.Api.Tests.WaitingRoom;

public sealed class PostgresWaitingRoomContract(PostgresBackend backend) : WaitingRoomContract<PostgresBackend>(backend);
