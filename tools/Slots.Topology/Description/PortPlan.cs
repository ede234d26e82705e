namespace Slots.Topology;

/// <summary>Every fixed port of a stack. The second HAProxy node's listeners default to the first's + 1, its
/// runtime API to the stats port + 2, as the HA stack has always derived them.</summary>
public sealed record PortPlan(
    int Front,
    int Redirect,
    int Stats,
    int Postgres,
    int ApiFirst,
    int SchedulerFirst,
    int Amqp,
    int RabbitDist,
    int RabbitMgmt,
    int Epmd,
    int EtcdFirst,
    int PgNodeFirst,
    int PatroniFirst,
    int RabbitFirst,
    int PeerFirst,
    int AdminFirst,
    int Front2,
    int Redirect2,
    int Stats2,
    int Postgres2)
{
    /// <summary>The stack's defaults. The HA ports lie below Linux's ephemeral range
    /// (32768-60999): a node killed and restarted could otherwise find its port taken as a client's source port.</summary>
    public static PortPlan Stack { get; } = Derive(
        front: 8443, redirect: 8080, stats: 8404, postgres: 55432, apiFirst: 5101, schedulerFirst: 5199,
        amqp: 56720, rabbitDist: 56721, rabbitMgmt: 56722, epmd: 56723,
        etcdFirst: 26800, pgNodeFirst: 25441, patroniFirst: 28008, rabbitFirst: 26740, peerFirst: 26790);

    /// <summary>loadtest/chaos.sh's ports, beside a running development stack.</summary>
    public static PortPlan Chaos { get; } = Derive(
        front: 8180, redirect: 8190, stats: 8504, postgres: 25532, apiFirst: 5111, schedulerFirst: 5189,
        amqp: 26730, rabbitDist: 26731, rabbitMgmt: 26732, epmd: 26733,
        etcdFirst: 26900, pgNodeFirst: 25541, patroniFirst: 28108, rabbitFirst: 26840, peerFirst: 26890);

    /// <summary>A plan whose second-node ports follow from the first node's, as the defaults do.</summary>
    public static PortPlan Derive(
        int front, int redirect, int stats, int postgres, int apiFirst, int schedulerFirst,
        int amqp, int rabbitDist, int rabbitMgmt, int epmd,
        int etcdFirst, int pgNodeFirst, int patroniFirst, int rabbitFirst, int peerFirst) =>
        new(front, redirect, stats, postgres, apiFirst, schedulerFirst, amqp, rabbitDist, rabbitMgmt, epmd,
            etcdFirst, pgNodeFirst, patroniFirst, rabbitFirst, peerFirst, AdminFirst: stats + 2,
            Front2: front + 1, Redirect2: redirect + 1, Stats2: stats + 1, Postgres2: postgres + 1);

    public int Api(int n) => ApiFirst + n - 1;

    /// <summary>API instance n's admission agent, which HAProxy asks for the instance's maxconn: 50 above its HTTP port.</summary>
    public int ApiAgent(int n) => Api(n) + 50;

    public int Scheduler(int n) => SchedulerFirst + n - 1;

    /// <summary>etcd member n: client port FIRST + 2(n-1), peer port + 1.</summary>
    public int EtcdClient(int n) => EtcdFirst + (2 * (n - 1));

    public int EtcdPeer(int n) => EtcdClient(n) + 1;

    public int PgNode(int n) => PgNodeFirst + n - 1;

    public int Patroni(int n) => PatroniFirst + n - 1;

    /// <summary>RabbitMQ HA node n: AMQP FIRST + 10(n-1), distribution + 1, management + 2, CLI distribution + 3..9.</summary>
    public int RabbitAmqp(int n) => RabbitFirst + (10 * (n - 1));

    public int HaproxyFront(int n) => n == 1 ? Front : Front2;

    public int HaproxyRedirect(int n) => n == 1 ? Redirect : Redirect2;

    public int HaproxyStats(int n) => n == 1 ? Stats : Stats2;

    public int HaproxyPostgres(int n) => n == 1 ? Postgres : Postgres2;

    public int Peer(int n) => PeerFirst + n - 1;

    public int Admin(int n) => AdminFirst + n - 1;
}
