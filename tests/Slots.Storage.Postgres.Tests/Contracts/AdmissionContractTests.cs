using Slots.Testing.Contracts.Admission;

namespace Slots.Storage.Postgres.Tests.Contracts;

public sealed class AdmissionContractTests(PostgresBackend backend) : AdmissionContract<PostgresBackend>(backend);
