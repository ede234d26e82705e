// The staff key lives in sessionStorage: gone when the tab closes, never in localStorage or a URL.
const storageKey = 'slots.adminKey';

export const adminKey = {
  read: (): string | null => sessionStorage.getItem(storageKey),
  save: (key: string) => sessionStorage.setItem(storageKey, key),
  clear: () => sessionStorage.removeItem(storageKey),
};
