/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the API lives, e.g. https://api.example.sk; empty means the page's own origin. */
  readonly VITE_API_BASE?: string;
}
