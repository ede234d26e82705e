using Slots.Api.Tests.Postgres;

namespace Slots.Api.Tests.Admission;

public sealed class PostgresAdmissionContract(PostgresBackend backend) : AdmissionContract<PostgresBackend>(backend);
