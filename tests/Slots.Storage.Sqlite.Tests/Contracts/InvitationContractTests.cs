using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class InvitationContractTests(Slots.Testing.Web.SqliteBackend backend) : InvitationContract<Slots.Testing.Web.SqliteBackend>(backend);
