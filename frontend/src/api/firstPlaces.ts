// The places a person sees first: every region, the first page. index.html preloads this request
// (vite.config.ts), so it travels while the script downloads instead of after it has run;
// SlotsApi.places('', '', 1) must ask for exactly this, or the preload is wasted (slotsApi.test.ts).
export const placesPageSize = 20;
export const firstPlacesPath = `/api/places?page=1&pageSize=${placesPageSize}`;
