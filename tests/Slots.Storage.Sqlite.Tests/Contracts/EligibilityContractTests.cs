using Slots.Testing.Contracts.Campaign;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class EligibilityContractTests(Slots.Testing.Web.SqliteBackend backend) : EligibilityContract<Slots.Testing.Web.SqliteBackend>(backend);
