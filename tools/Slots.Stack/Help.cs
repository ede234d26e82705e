namespace Slots.Stack;

internal static class Help
{
    public static void Print(TextWriter output) => output.Write("""
        usage: ./slots stack VERB
          up [--ha]            build once, start what is not running, wait until healthy, print the URLs; --ha: etcd,
                               Patroni-managed PostgreSQL nodes, 3 RabbitMQ nodes, 2 HAProxy peers (the state folder
                               remembers the shape in topology.json, so the other verbs need no flag)
          down                 stop everything (SIGTERM, up to 20 s, then SIGKILL; PostgreSQL through pg_ctl)
          status               each part, its PID and its health
          start PART           start one part again and wait for its health (the chaos soak's heal)
          stop PART            stop one part by its PID file
          pids PART            the process ids of one part (HA: pgN, pgN-postgres, pgN-patroni, primary, …)
          primary              (HA) the Patroni node that leads
          pg-stop fast|immediate   stop the single stack's PostgreSQL as an operator or a crash would
          reload-cert [--renew]    HAProxy reloads its certificate without dropping a connection
          backup [--type full|incr|diff]   (HA) a pgBackRest backup from the primary; WAL is archived all the time
          restore --to "TIME"  (HA) the cluster as it was at TIME (PostgreSQL's timestamptz syntax), docs/reliability.md
          wipe                 stop everything and delete the state folder and PostgreSQL's data
          help                 this text
        State: .stack/ (SLOTS_STACK_DIR). Ports, counts and folders come from SLOTS_* variables (docs/scaling.md);
        `up` keeps them in topology.json, which every other verb reads.

        """);
}
