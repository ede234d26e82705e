using Slots;
using Slots.Api.Admin;
using Slots.Api.Admission;
using Slots.Api.Benchmark;
using Slots.Api.Finders;
using Slots.Api.Hosting;
using Slots.Api.Places;
using Slots.Api.Privacy;
using Slots.Api.Reservations;
using Slots.Api.Staff;
using Slots.Api.WaitingList;
using Slots.Hosting;
using Slots.Hosting.Health;
using Slots.Hosting.Metrics;
using Slots.Hosting.Secrets;

var builder = WebApplication.CreateBuilder(args);

builder.AddSecrets();        // secret files (SLOTS_SECRETS_DIR); no start outside Development with a development secret
builder.AddSlotsDomain();    // reservations, places, slots, window, persons
builder.AddSlotsStorage();   // the backend named by Slots:Storage:Provider
builder.AddHttpApi();        // JSON, problem details, OpenAPI, proxies
builder.AddWebSecurity();    // no Server banner, CORS only for configured origins
builder.AddAdminAuth();      // API keys for machines (load tests, ops scripts)
builder.AddStaffAuth();      // staff tokens from the site's OpenID provider, roles per place
builder.AddAdmissionTokens(); // signed waiting-room tokens: no start without the key
builder.AddRateLimits();     // second line behind HAProxy
builder.AddConcurrencyLimit(); // in flight on the booking path follows measured latency; the rest hears 429 at once
builder.AddHealthProbes();   // live and ready probes
builder.AddSlotsScheduling(); // window jobs in this process on the embedded default
builder.AddSlotsMetrics();   // the Slots.* meters at /metrics (loopback or staff key)
builder.AddVaccineFinders(); // availability published as SMART Scheduling Links, made at most once a minute
builder.AddPrivacy();        // whom people ask about their data (the privacy page)

var app = builder.Build();

if (MigrateCommand.IsRequested(args))
{
    return await MigrateCommand.RunAsync(app);   // `migrate`: apply the schema, then exit
}

app.UseForwardedHeaders();
app.UseWebSecurity();
app.UseExceptionHandler();
app.UseStatusCodePages();
app.UseFrontend();
app.UseStaffAuthentication();   // only requests that carry a bearer token or a machine key are read
app.UseAuthorization();
app.UseRateLimiter();
app.UseConcurrencyLimit();

app.MapOpenApi();
app.MapApiReference();  // /scalar: the reference page drawn from the document
app.MapHealthProbes();
app.MapSlotsMetrics();
app.MapPlaces();
app.MapReservations();
app.MapPersonalData();  // a person sees and erases what is kept about them, proven as the look-up
app.MapAdmin();
app.MapAdmission();    // openings, joins, status; the booking gate sits in MapReservations
app.MapOpenings();
app.MapWaitingList();    // a place's waiting list: join, position, claim a held seat, leave
app.MapVaccineFinders(); // /fhir/$bulk-publish and its NDJSON files, for vaccine finders
app.MapPrivacy();        // the privacy page's retention period and contact
app.MapStaff();          // the site's day: roster, export, check-in, audit (staff tokens, per place)
app.MapBenchmark();      // EF Core baseline + no-op, only with Slots:Benchmark:Baseline=true

await app.RunAsync();
return 0;

/// <summary>The API host; public so tests can start it.</summary>
public partial class Program;
