namespace Slots.Window;

/// <summary>What a window move loaded: seats created and cold-path reservations made hot.</summary>
public readonly record struct WindowMove(int Seats, int Reservations);
