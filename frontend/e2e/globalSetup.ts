import type { TestProject } from 'vitest/node';
import { assertBuilt, buildApi, type RunningApi, serveSpa, startApi } from './stack';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The SPA, proxied to an API with the default limits. */
    appUrl: string;
    apiUrl: string;
    /** The SPA, proxied to an API that allows one reservation write per 5 s window. */
    limitedAppUrl: string;
    limitedApiUrl: string;
  }
}

export default async function setup(project: TestProject) {
  assertBuilt();
  if (process.env.SLOTS_E2E_SKIP_API_BUILD !== '1') buildApi();
  const apis: RunningApi[] = [];
  const servers: { close: () => Promise<void> }[] = [];
  const teardown = async () => {
    await Promise.allSettled(servers.map((s) => s.close()));
    await Promise.allSettled(apis.map((a) => a.stop()));
  };
  try {
    const [api, limited] = await Promise.all([
      startApi('main'),
      startApi('limited', { Slots__RateLimits__WritesPerWindow: '1', Slots__RateLimits__Window: '00:00:05' }),
    ]);
    apis.push(api, limited);
    const app = await serveSpa(api.url);
    const limitedApp = await serveSpa(limited.url);
    servers.push(app.server, limitedApp.server);
    project.provide('appUrl', app.url);
    project.provide('apiUrl', api.url);
    project.provide('limitedAppUrl', limitedApp.url);
    project.provide('limitedApiUrl', limited.url);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
