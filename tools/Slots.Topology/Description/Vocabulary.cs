namespace Slots.Topology;

// CA1720: "Single" is the stack's name in the scripts, the docs and the plan; it is no type here.
#pragma warning disable CA1720
/// <summary>Which stack: the single-node one (./slots stack up) or the high-availability one (./slots stack up --ha).</summary>
public enum Shape { Single, Ha }
#pragma warning restore CA1720

public enum NodeKind { Postgres, Etcd, Patroni, Epmd, RabbitMq, Api, Scheduler, Haproxy, Job, Gate }

/// <summary>When a dependency counts as met; the same three as compose's depends_on conditions
/// (service_started, service_healthy, service_completed_successfully).</summary>
public enum Condition { Started, Healthy, Completed }

/// <summary>Who a command runs as. Postgres: as the postgres user when the caller is root (initdb refuses root).</summary>
public enum RunAs { Caller, Postgres }

/// <summary>The ASP.NET Core / .NET environment name the stack's hosts run under.</summary>
public enum AppProfile { Development, Production }

/// <summary>How a node is stopped.</summary>
public enum StopStyle
{
    /// <summary>SIGTERM, up to 20 s for a clean exit, then SIGKILL.</summary>
    Term20Then9,
    /// <summary>pg_ctl stop -m fast.</summary>
    PgCtlFast,
    /// <summary>SIGTERM to the server script, which runs rabbitmqctl stop.</summary>
    RabbitTerm,
    /// <summary>Patroni nodes: the replicas first, the leader last, so nothing fails over while the cluster stops;
    /// then any postmaster whose Patroni was killed gets SIGINT.</summary>
    PatroniReplicasFirst,
    /// <summary>Nothing runs on: a job or a gate.</summary>
    Nothing,
}
