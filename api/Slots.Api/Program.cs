using Slots;
using Slots.Api.Admin;
using Slots.Api.Endpoints;
using Slots.Api.Hosting;

var builder = WebApplication.CreateBuilder(args);

builder.AddSlotsDomain();    // reservations, places, slots, window, persons
builder.AddSlotsStorage();   // the backend named by Slots:Storage:Provider
builder.AddHttpApi();        // JSON, problem details, OpenAPI, proxies
builder.AddAdminAuth();      // API keys for staff endpoints
builder.AddRateLimits();     // second line behind HAProxy
builder.AddHealth();         // live and ready probes

var app = builder.Build();

app.UseForwardedHeaders();
app.UseExceptionHandler();
app.UseStatusCodePages();
app.UseFrontend();
app.UseAuthentication();
app.UseAuthorization();
app.UseRateLimiter();

app.MapOpenApi();
app.MapHealth();
app.MapPlaces();
app.MapReservations();
app.MapAdmin();
app.MapBenchmark();      // EF Core baseline + no-op, only with Slots:Benchmark:Baseline=true

await app.RunAsync();

/// <summary>The API host; public so tests can start it.</summary>
public partial class Program;
