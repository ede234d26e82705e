namespace Slots.Api.Http;

/// <summary>One page of a list, with where it is in the whole.</summary>
public sealed record PageDto<T>(IReadOnlyList<T> Items, int Page, int PageSize, int Total);
