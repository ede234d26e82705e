namespace Slots.Topology.Run;

/// <summary>A part of the stack could not start or become healthy; the message says which and where its log is
/// (the CLI prints it and exits 1, as the scripts did).</summary>
public class StackStartException(string message) : Exception(message);

/// <summary>A request the stack cannot serve as asked: an unknown part, a verb the shape has not (the CLI exits 2).</summary>
public class StackUsageException(string message) : Exception(message);
