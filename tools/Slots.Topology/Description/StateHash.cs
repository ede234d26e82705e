using System.Security.Cryptography;
using System.Text;

namespace Slots.Topology;

/// <summary>The scripts' `printf '%s' "$STATE" | md5sum | cut -c1-8`: names that differ per state folder (the
/// etcd cluster token, the pgBackRest stanza, the postgres fallback folder), the same as the scripts', so the
/// data of a stack they started is found again.</summary>
public static class StateHash
{
    // CA5351: no security rests on this hash; it only has to equal md5sum's, so a stack the scripts started is found.
#pragma warning disable CA5351
    public static string Of(string stateDir) =>
        Convert.ToHexStringLower(MD5.HashData(Encoding.UTF8.GetBytes(stateDir)))[..8];
#pragma warning restore CA5351
}
