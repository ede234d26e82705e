using System.Reflection;
using Microsoft.Data.SqlClient;

namespace Slots.Storage.SqlServer.Tests.Adapter;

/// <summary>Builds a real SqlException through SqlClient's internal factory (test-only reflection; there is no public constructor).</summary>
public static class SqlExceptions
{
    public static SqlException With(params int[] numbers)
    {
        const BindingFlags Internal = BindingFlags.NonPublic | BindingFlags.Instance;
        var collection = (SqlErrorCollection)typeof(SqlErrorCollection).GetConstructor(Internal, Type.EmptyTypes)!.Invoke(null);
        var add = typeof(SqlErrorCollection).GetMethod("Add", Internal)!;
        var errorConstructor = typeof(SqlError).GetConstructors(Internal).OrderByDescending(c => c.GetParameters().Length).First();
        foreach (var number in numbers)
        {
            var parameters = errorConstructor.GetParameters();
            var arguments = new object?[parameters.Length];
            var numberSet = false;
            for (var i = 0; i < parameters.Length; i++)
            {
                var type = parameters[i].ParameterType;
                if (type == typeof(int) && !numberSet)
                {
                    arguments[i] = number; // the first int is the error number (infoNumber)
                    numberSet = true;
                }
                else
                {
                    arguments[i] = type == typeof(int) ? 1
                        : type == typeof(byte) ? (byte)16
                        : type == typeof(uint) ? 0u
                        : type == typeof(string) ? $"error {number}"
                        : null;
                }
            }
            add.Invoke(collection, [errorConstructor.Invoke(arguments)]);
        }
        var create = typeof(SqlException).GetMethod("CreateException", BindingFlags.NonPublic | BindingFlags.Static,
            [typeof(SqlErrorCollection), typeof(string)])!;
        return (SqlException)create.Invoke(null, [collection, "16.0.0"])!;
    }
}
