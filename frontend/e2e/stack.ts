import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Starts the real API (dotnet), which serves the built SPA from frontend/dist at its root: the
// browser gets the page exactly as people do from `./slots run` (and HAProxy, which passes it on).

export const frontendDir = resolve(import.meta.dirname, '..');
const repoRoot = resolve(frontendDir, '..');
const apiProject = join(repoRoot, 'api', 'Slots.Api');
// SLOTS_E2E_ARTIFACTS: build into and run from another artifacts folder than the repository's own.
const artifacts = process.env.SLOTS_E2E_ARTIFACTS ? resolve(process.env.SLOTS_E2E_ARTIFACTS) : undefined;
const apiDll = join(artifacts ?? join(repoRoot, 'artifacts'), 'bin', 'Slots.Api', 'debug', 'Slots.Api.dll');

export function buildApi(): void {
  const args = ['build', apiProject, '--nologo', '-v', 'quiet', ...(artifacts ? [`-p:ArtifactsPath=${artifacts}`] : [])];
  const result = spawnSync('dotnet', args, { stdio: 'inherit', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`dotnet build failed (${result.status ?? result.signal})`);
}

export function assertBuilt(): void {
  if (!existsSync(join(frontendDir, 'dist', 'index.html'))) throw new Error('Run `npm run build` before `npm run e2e`.');
}

/**
 * Ports for the tests' servers, below Linux's ephemeral range (ip_local_port_range, 32768 and up): a port from that
 * range, as listening on port 0 gives, can be taken as the source port of an outgoing connection in the seconds before
 * its server starts (the provider of the staff tests starts after the SPA's build and the API). Below it only another
 * listener can take it.
 */
export const testPorts = { from: 20_000, to: 32_000 };

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = testPorts.from + Math.floor(Math.random() * (testPorts.to - testPorts.from));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${testPorts.from}–${testPorts.to}`);
}

/** Whether a server can listen on the port on the loopback right now. */
export function canListen(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

/** True when GET url answers 2xx over HTTPS, trusting only the given CA (the local one scripts/tls.sh made). */
function httpsOk(url: string, ca: Buffer): Promise<boolean> {
  return new Promise((resolveOk) => {
    const req = request(url, { ca, timeout: 2_000 }, (res) => {
      res.resume();
      resolveOk((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300);
    });
    req.on('error', () => resolveOk(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number, ca?: Buffer): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}`);
    try {
      const probe = `${url}/api/places/regions`;
      if (ca ? await httpsOk(probe, ca) : (await fetch(probe, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`API at ${url} not ready within ${timeoutMs} ms`);
}

export interface RunningApi {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Runs a server in its own process group (so stop() ends it and anything it started), its output in
 * dir/logName; answers once it serves `url`, or kills it and throws with where its log is.
 */
async function startServer(
  what: string,
  command: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
  dir: string,
  logName: string,
  url: string,
  timeoutMs: number,
  ca?: Buffer,
): Promise<RunningApi> {
  const log = createWriteStream(join(dir, logName));
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      const killer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(url, child, timeoutMs, ca);
  } catch (error) {
    console.error(`${what} failed to start; log in ${join(dir, logName)}`);
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    throw error;
  }
  return { url, stop };
}

export async function startApi(name: string, settings: Record<string, string> = {}, port?: number): Promise<RunningApi> {
  const dir = mkdtempSync(join(tmpdir(), `slots-e2e-${name}-`));
  const url = `http://127.0.0.1:${port ?? (await freePort())}`;
  const env = {
    ...process.env,
    ASPNETCORE_ENVIRONMENT: 'Development',
    // User secrets of its own (read from APPDATA before HOME): a development key that `./slots staff
    // token` left in this machine's secrets makes Development's bearer scheme refuse the test provider's tokens.
    APPDATA: dir,
    ConnectionStrings__Slots: `Data Source=${join(dir, 'slots.db')}`,
    Slots__Frontend__Root: join(frontendDir, 'dist'),
    ...settings,
  };
  return startServer(`API ${name}`, 'dotnet', [apiDll, '--urls', url], { cwd: apiProject, env }, dir, 'api.log', url, 60_000);
}

/**
 * HAProxy with the product's own haproxy.cfg in front of the given API instances: the production
 * path (rate limits, shedding, problem answers) between the browser and the API.
 */
export async function startProxy(apiUrls: string[]): Promise<RunningApi & { statsUrl: string; spki: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'slots-e2e-haproxy-'));
  const [front, stats] = [await freePort(), await freePort()];
  // HTTPS only, as the stack serves it: a certificate from a local CA of this run (scripts/tls.sh).
  const tls = join(dir, 'tls');
  const made = spawnSync('bash', [join(repoRoot, 'scripts', 'tls.sh'), 'local', tls], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 60_000 });
  if (made.status !== 0) throw new Error(`scripts/tls.sh local failed (${made.status ?? made.signal})`);
  const servers = Object.fromEntries(apiUrls.map((u, i) => [`SLOTS_API_${i + 1}`, new URL(u).host]));
  const env = {
    ...process.env, SLOTS_TLS_CERT: join(tls, 'server.pem'),
    SLOTS_FRONT_BIND: `127.0.0.1:${front}`, SLOTS_STATS_BIND: `127.0.0.1:${stats}`, ...servers,
  };
  // Ready when HAProxy's health checks have marked the servers up and a request gets through.
  const proxy = await startServer('HAProxy', 'haproxy', ['-db', '-f', join(repoRoot, 'haproxy', 'haproxy.cfg')], { env }, dir, 'haproxy.log',
    `https://127.0.0.1:${front}`, 30_000, readFileSync(join(tls, 'ca.crt')));
  // The browser trusts this one server key and nothing else (Chromium's --ignore-certificate-errors-spki-list).
  const key = new X509Certificate(readFileSync(join(tls, 'server.pem'))).publicKey.export({ type: 'spki', format: 'der' });
  return { ...proxy, statsUrl: `http://127.0.0.1:${stats}`, spki: createHash('sha256').update(key).digest('base64') };
}

/** The SPA built again into a folder of its own, with build variables (a staff provider's address). */
export function buildSpa(env: Record<string, string>): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'slots-e2e-dist-'));
  const result = spawnSync('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
    // NODE_ENV as a real build has it: the test runner's "test" would make it a development build.
    cwd: frontendDir, env: { ...process.env, NODE_ENV: 'production', ...env }, stdio: 'inherit', timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`vite build failed (${result.status ?? result.signal})`);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A member of staff the test OpenID provider signs in: their roles and, for site roles, their places. */
export interface StaffUser { sub: string; roles: string[]; places?: string[] }

/** The API serving a SPA that signs staff in at the test provider, the provider, and one stop for both. */
export interface SignInStack { api: RunningApi; issuer: string; stop: () => Promise<void> }

/**
 * The staff and admin screens' setup: the SPA built with the provider's address, an API that serves it
 * and trusts the provider's tokens, and the provider with `users`. The users may be given once the API
 * answers (a site's staff need the id of a place the test makes there first): the API reads the
 * provider's keys on the first token it sees, so the provider may start after it.
 */
export async function startApiWithProvider(
  name: string,
  users: StaffUser[] | ((api: RunningApi) => Promise<StaffUser[]>),
  settings: Record<string, string> = {},
): Promise<SignInStack> {
  const [apiPort, providerPort] = [await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${providerPort}`;
  const started: { stop: () => Promise<void> | void }[] = [];
  const stop = async () => {
    for (const s of started.reverse()) await s.stop();
  };
  try {
    const spa = buildSpa({
      VITE_STAFF_AUTHORITY: issuer, VITE_STAFF_CLIENT_ID: 'slots-spa', VITE_STAFF_SCOPE: 'openid staff', VITE_STAFF_RESOURCE: 'urn:slots-api',
    });
    started.push({ stop: spa.remove });
    const api = await startApi(name, {
      Slots__Frontend__Root: spa.dir,
      Authentication__Schemes__Bearer__Authority: issuer,
      Authentication__Schemes__Bearer__RequireHttpsMetadata: 'false',
      Authentication__Schemes__Bearer__ValidAudiences__0: 'slots-api',
      ...settings,
    }, apiPort);
    started.push(api);
    started.push(await startOidcProvider(providerPort, {
      audience: 'slots-api',
      users: typeof users === 'function' ? await users(api) : users,
      clients: [{
        client_id: 'slots-spa', token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'],
        redirect_uris: [`${api.url}/`],
      }],
    }));
    return { api, issuer, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The test OpenID provider (tools/oidc-test-provider: oidc-provider on loopback) on the given port,
 * with the users and clients of `config`; answers once it prints "listening <issuer>".
 */
export async function startOidcProvider(port: number, config: object): Promise<RunningApi> {
  const providerDir = join(repoRoot, 'tools', 'oidc-test-provider');
  if (!existsSync(join(providerDir, 'node_modules'))) {
    const installed = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: providerDir, stdio: 'inherit', timeout: 180_000 });
    if (installed.status !== 0) throw new Error('npm ci in tools/oidc-test-provider failed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'slots-e2e-oidc-'));
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify(config));
  const child = spawn('node', ['provider.mjs', '--port', String(port), '--config', configPath], {
    cwd: providerDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(dir, 'provider.log'));
  child.stderr?.pipe(log);
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`OIDC provider not listening; log in ${dir}`)), 30_000);
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`OIDC provider exited with ${code}; log in ${dir}`)));
  });
  child.stdout?.pipe(log);
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid, 'SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
