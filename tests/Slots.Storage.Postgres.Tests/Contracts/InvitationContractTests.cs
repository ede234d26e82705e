using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class InvitationContractTests(PostgresBackend backend) : InvitationContract<PostgresBackend>(backend);
