using Slots;
using Slots.Hosting;
using Slots.Hosting.Health;
using Slots.Hosting.Metrics;
using Slots.Hosting.Secrets;
using Slots.Scheduler.Hosting;
using Slots.Sms.RabbitMq;

var builder = WebApplication.CreateBuilder(args);

builder.AddSecrets();                             // secret files (SLOTS_SECRETS_DIR); no development secret outside Development
builder.AddSlotsDomain();                         // window, places, clock
builder.AddSlotsStorage();                        // the backend named by Slots:Storage:Provider
builder.AddSchemaStartup();                       // migrate before the first job (when MigrateOnStart)
builder.AddSlotsScheduling(dedicatedHost: true);  // Quartz: window jobs and the SMS relay, clustered on the server backends
builder.AddHealthProbes();                        // live and ready probes
builder.AddSlotsMetrics();                        // the Slots.* meters at /metrics (loopback or staff key)

var app = builder.Build();

if (SmsCommands.IsSmsCommand(args))
{
    // `sms dead-letters list|replay`: the operator's tools, run instead of the host.
    return await SmsCommands.RunAsync(args, app.Services, Console.Out, CancellationToken.None);
}

app.MapHealthProbes();
app.MapSlotsMetrics();

await app.RunAsync();
return 0;

/// <summary>The scheduler host; public so tests can start it.</summary>
public partial class Program;
