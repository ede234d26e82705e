using Slots;
using Slots.Scheduler.Hosting;
using Slots.Scheduling;

var builder = WebApplication.CreateBuilder(args);

builder.AddSlotsDomain();                         // window, places, clock
builder.AddSlotsStorage();                        // the backend named by Slots:Storage:Provider
builder.AddSchemaStartup();                       // migrate before the first job (when MigrateOnStart)
builder.AddSlotsScheduling(dedicatedHost: true);  // Quartz: window jobs, clustered on the server backends
builder.AddSchedulerHealth();                     // live and ready probes

var app = builder.Build();

app.MapSchedulerHealth();

await app.RunAsync();

/// <summary>The scheduler host; public so tests can start it.</summary>
public partial class Program;
