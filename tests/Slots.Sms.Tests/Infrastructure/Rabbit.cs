using Slots.Testing;

namespace Slots.Sms.Tests.Infrastructure;

public static class Rabbit
{
    /// <summary>The run's shared node; the test skips with the reason where RabbitMQ cannot run.</summary>
    public static async Task<RabbitMqServer> SharedAsync()
    {
        try
        {
            return await RabbitMqServer.SharedAsync();
        }
        catch (RabbitMqUnavailableException ex)
        {
            Assert.Skip(ex.Message);
            throw;
        }
    }

    /// <summary>A node of the test's own (for tests that stop, start or freeze it); the test skips with the reason where RabbitMQ cannot run.</summary>
    public static async Task<RabbitMqServer> OwnNodeAsync()
    {
        try
        {
            return await RabbitMqServer.CreateAsync();
        }
        catch (RabbitMqUnavailableException ex)
        {
            Assert.Skip(ex.Message);
            throw;
        }
    }

    public static void Report(string line)
    {
        TestContext.Current.TestOutputHelper?.WriteLine(line);
        Console.WriteLine(line);
    }
}
