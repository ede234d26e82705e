using Slots.Testing.Contracts.Retention;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class RetentionContractTests(Slots.Testing.Web.SqliteBackend backend) : RetentionContract<Slots.Testing.Web.SqliteBackend>(backend);
