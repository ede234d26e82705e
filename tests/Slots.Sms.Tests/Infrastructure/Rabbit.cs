using Slots.Sms.RabbitMq;
using Slots.Testing;

namespace Slots.Sms.Tests.Infrastructure;

public static class Rabbit
{
    /// <summary>The run's shared node; the test skips (under CI fails) with the reason where RabbitMQ cannot run.</summary>
    public static Task<RabbitMqServer> SharedAsync() => OrSkipAsync(RabbitMqServer.SharedAsync);

    /// <summary>A node of the test's own (for tests that stop, start or freeze it); the test skips (under CI fails) with the reason where RabbitMQ cannot run.</summary>
    public static Task<RabbitMqServer> OwnNodeAsync() => OrSkipAsync(RabbitMqServer.CreateAsync);

    /// <summary>What <paramref name="start"/> starts (a node, a cluster); the test skips (under CI fails) with the reason where RabbitMQ cannot run.</summary>
    public static Task<T> OrSkipAsync<T>(Func<Task<T>> start) => Unavailable.SkipOrFailAsync(start);

    /// <summary>The ready messages in the broker's work queue, read over a connection of the test's own.</summary>
    public static async Task<uint> ReadyAsync(SmsBroker broker)
    {
        await using var connection = await broker.ConnectAsync("slots-test-reader", CancellationToken.None);
        await using var channel = await connection.CreateChannelAsync();
        return await channel.MessageCountAsync(broker.WorkQueue);
    }

    public static void Report(string line)
    {
        TestContext.Current.TestOutputHelper?.WriteLine(line);
        Console.WriteLine(line);
    }
}
