// A waiting-room token holds the opening, the place in line and a signature, never personal data,
// so it may outlive the tab: closing the page or a crash of the browser does not lose the place.

const prefix = 'slots.waitingRoom.';

export function savedToken(openingId: number): string | null {
  try {
    return localStorage.getItem(prefix + openingId);
  } catch {
    return null; // storage switched off: the person joins again and keeps the same place (one per person)
  }
}

export function saveToken(openingId: number, token: string): void {
  try {
    localStorage.setItem(prefix + openingId, token);
  } catch {
    // as above
  }
}

export function forgetToken(openingId: number): void {
  try {
    localStorage.removeItem(prefix + openingId);
  } catch {
    // as above
  }
}
