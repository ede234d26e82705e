using Slots.Testing.Contracts.Admission;

namespace Slots.Storage.Sqlite.Tests.Contracts;

public sealed class AdmissionContractTests(Slots.Testing.Web.SqliteBackend backend) : AdmissionContract<Slots.Testing.Web.SqliteBackend>(backend);
