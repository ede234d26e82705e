using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Reservations;

namespace Slots.Api.Reservations;

/// <summary>
/// What a request by booking code passes before anything is read or changed: a usable phone or national id
/// in the headers, a code of the right shape, and a code not locked by too many wrong proofs. The look-up,
/// the cancel, the move and the person's data all pass this one gate, so none of them can forget the limit.
/// </summary>
internal sealed class ProofGate(ReservationRequests requests, WrongProofs wrongProofs)
{
    /// <summary>A refusal to answer as it is, or the normalized code with its proof.</summary>
    public readonly record struct Passage(ValidationProblem? Invalid, ProblemHttpResult? Refused, string Code, ContactProof Proof);

    /// <summary>
    /// Reads the proof into <paramref name="v"/>, beside whatever else the endpoint has checked there, and refuses
    /// when anything is invalid, the code cannot be one, or the code is locked.
    /// </summary>
    public async Task<Passage> PassAsync(string code, HttpRequest request, Validation v, CancellationToken ct)
    {
        var proof = requests.Proof(request, v);
        if (!v.IsValid || proof is null)
        {
            return new(v.ToProblem(), null, "", default);
        }
        if (ConfirmationCode.Normalize(code) is not { } normalized)
        {
            return new(null, Problem.ReservationNotFound(), "", default);
        }
        if (await wrongProofs.ClosedForAsync(normalized, ct) is { } wait)
        {
            return new(null, ReservationProblems.WrongProofLimit(wait, request.HttpContext.Response), "", default);
        }
        return new(null, null, normalized, proof.Value);
    }

    /// <summary>
    /// Runs <paramref name="act"/> under the proof's key and, where it <paramref name="missed"/>, under the key in
    /// force before the last rotation of the person secret.
    /// </summary>
    public static async Task<T> UnderEitherKeyAsync<T>(ContactProof proof, Func<ContactProof, Task<T>> act, Func<T, bool> missed)
    {
        var answer = await act(proof);
        if (missed(answer) && proof.UnderPreviousKey is { } previous)
        {
            answer = await act(previous);
        }
        return answer;
    }

    /// <summary>Counts a proof that matched nothing against the code, toward its lock.</summary>
    public Task MissedAsync(string code, CancellationToken ct) => wrongProofs.RecordAsync(code, ct);
}
