import type { TestProject } from 'vitest/node';
import { assertBuilt, buildApi, freePort, type RunningApi, startApi, startProxy } from './stack';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The SPA as an API with the default limits serves it (the same origin as the API). */
    appUrl: string;
    apiUrl: string;
    /** The SPA as an API that allows one reservation write per 5 s window serves it. */
    limitedAppUrl: string;
    limitedApiUrl: string;
    /** The SPA through HAProxy (the product's haproxy.cfg) in front of the main API. */
    proxyUrl: string;
    proxyStatsUrl: string;
    /** The proxy's certificate key (SHA-256 of its SPKI, base64): the one a browser of the proxied tests trusts. */
    proxySpki: string;
  }
}

export default async function setup(project: TestProject) {
  assertBuilt();
  if (process.env.SLOTS_E2E_SKIP_API_BUILD !== '1') buildApi();
  const apis: RunningApi[] = [];
  const teardown = async () => {
    await Promise.allSettled(apis.map((a) => a.stop()));
  };
  try {
    // The vaccine-finder publication's booking deep links name this instance's own page (links.e2e.ts opens one).
    const mainPort = await freePort();
    const [api, limited] = await Promise.all([
      startApi('main', { Slots__Finders__PublicUrl: `http://127.0.0.1:${mainPort}/` }, mainPort),
      startApi('limited', { Slots__RateLimits__WritesPerWindow: '1', Slots__RateLimits__Window: '00:00:05' }),
    ]);
    apis.push(api, limited);
    const proxy = await startProxy([api.url]);
    apis.push(proxy);
    // The page as people get it: from the API itself (frontend/dist through Slots:Frontend:Root), not a dev server.
    project.provide('appUrl', api.url);
    project.provide('apiUrl', api.url);
    project.provide('limitedAppUrl', limited.url);
    project.provide('limitedApiUrl', limited.url);
    project.provide('proxyUrl', proxy.url);
    project.provide('proxyStatsUrl', proxy.statsUrl);
    project.provide('proxySpki', proxy.spki);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
