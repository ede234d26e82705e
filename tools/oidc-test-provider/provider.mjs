// A real OpenID provider (oidc-provider, OpenID Certified) on loopback for the staff sign-in tests.
// Access tokens are RS256 JWTs for one resource (the API's audience) carrying `role` and `places`;
// users and clients come from a JSON file (README.md). Prints "listening <issuer>" when ready and
// nothing about the people it signs in.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

import Provider, { errors } from 'oidc-provider';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string' },
    issuer: { type: 'string' },
    config: { type: 'string' },
  },
});
const port = Number(args.port ?? process.env.OIDC_PORT ?? 0);
const configPath = args.config ?? process.env.OIDC_CONFIG;
// Dynamic registration is open only to a caller holding this token (the test harness).
const registrationToken = process.env.OIDC_REGISTRATION_TOKEN;

const config = configPath ? JSON.parse(readFileSync(configPath, 'utf8')) : {};
const audience = config.audience ?? 'slots-api';
// RFC 8707 wants an absolute URI for the resource parameter; the token's aud is the plain audience.
const resource = config.resource ?? `urn:${audience}`;
const scope = 'staff';
const defaultTtl = config.access_token_ttl ?? 600;
const users = new Map((config.users ?? []).map((user) => [user.username ?? user.sub, user]));
const usersBySub = new Map((config.users ?? []).map((user) => [user.sub, user]));
const staticClients = config.clients ?? [];

const ttlFor = (client) => client?.metadata().access_token_ttl ?? defaultTtl;

const staffClaims = (roles, places) => ({
  role: [...(roles ?? [])],
  places: (places ?? []).map(String),
});

// A key of its own on every start, so a second instance signs with a key the first never published.
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' };

// Listen first: with port 0 the issuer names the port the system picked, and nobody races for it.
const server = createServer();
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(port, '127.0.0.1', resolve);
});
const issuer = args.issuer ?? process.env.OIDC_ISSUER ?? `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: staticClients,
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  claims: { openid: ['sub'] },
  ttl: {
    AccessToken: (ctx, token, client) => ttlFor(client),
    ClientCredentials: (ctx, token, client) => ttlFor(client),
    AuthorizationCode: 60,
    IdToken: 600,
    Interaction: 600,
    Session: 3600,
    Grant: 3600,
  },
  // Browser flows need the SPA's origin on the token endpoint; only a public client's own redirect origins.
  clientBasedCORS: (ctx, origin, client) =>
    origin !== 'null' && client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
  extraClientMetadata: {
    // staff_sub names a client registered for a staff member (its client_id, so the token's sub);
    // staff_roles and staff_places are that member's claims; access_token_ttl is in seconds.
    properties: ['staff_sub', 'staff_roles', 'staff_places', 'access_token_ttl'],
    validator(ctx, key, value, metadata) {
      const fail = (why) => { throw new errors.InvalidClientMetadata(`${key} ${why}`); };
      if (value === undefined) return;
      if (key === 'staff_sub' && value !== metadata.client_id) fail('must equal client_id');
      if ((key === 'staff_roles' || key === 'staff_places') && !Array.isArray(value)) fail('must be an array');
      if (key === 'access_token_ttl' && !(Number.isInteger(value) && value > 0)) fail('must be a positive integer');
    },
  },
  async findAccount(ctx, sub) {
    if (!usersBySub.has(sub)) return undefined;
    return { accountId: sub, claims: async () => ({ sub }) };
  },
  // A test provider's SPA is first-party: signing in grants the staff scope without a consent page.
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid');
    grant.addResourceScope(resource, scope);
    await grant.save();
    return grant;
  },
  async extraTokenClaims(ctx, token) {
    if (token.accountId) {
      const user = usersBySub.get(token.accountId);
      return user ? staffClaims(user.roles, user.places) : undefined;
    }
    const metadata = token.client?.metadata() ?? {};
    return metadata.staff_roles ? staffClaims(metadata.staff_roles, metadata.staff_places) : undefined;
  },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    registration: {
      enabled: registrationToken !== undefined,
      initialAccessToken: registrationToken ?? true,
      issueRegistrationAccessToken: false,
      idFactory(ctx) {
        const id = ctx.oidc.body?.staff_sub ?? randomUUID();
        // Registering a staff member again replaces that client (new claims, new secret); a static one stays.
        if (staticClients.some((client) => client.client_id === id)) {
          throw new errors.InvalidClientMetadata('staff_sub names a configured client');
        }
        return id;
      },
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => resource,
      useGrantedResource: async () => true,
      async getResourceServerInfo(ctx, indicator, client) {
        if (indicator !== resource) throw new errors.InvalidTarget();
        return {
          scope,
          audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: ttlFor(client),
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
});

// Nothing personal goes to the log: an internal error's message only, never the request.
provider.on('server_error', (ctx, error) => console.error(`server_error ${error.message}`));

const page = (title, body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const loginForm = (uid, error) => page('Sign in', `
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
  <label>User name <input name="login" autocomplete="username" autofocus required></label>
  <button type="submit">Sign in</button>
</form>`);

const readForm = async (req) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
};

const send = (res, status, html) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
};

// The one interaction a test provider needs: type a configured user name, be signed in as that user.
async function interaction(req, res, path) {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'GET' && path === `/interaction/${details.uid}`) {
    send(res, 200, loginForm(details.uid));
    return;
  }
  if (req.method === 'POST' && path === `/interaction/${details.uid}/login`) {
    const user = users.get((await readForm(req)).get('login') ?? '');
    if (!user) {
      send(res, 401, loginForm(details.uid, 'Unknown user name.'));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
    return;
  }
  send(res, 404, page('Not found', ''));
}

// Clients are checked on first use; check the configured ones now, so a bad file fails the start.
for (const client of staticClients) await provider.Client.find(client.client_id);

const callback = provider.callback();
server.on('request', (req, res) => {
  const path = new URL(req.url, issuer).pathname;
  if (!path.startsWith('/interaction/')) {
    callback(req, res);
    return;
  }
  interaction(req, res, path).catch((error) => {
    const status = error instanceof errors.OIDCProviderError ? error.statusCode : 500;
    if (status >= 500) console.error(`interaction_error ${error.message}`);
    if (!res.headersSent) send(res, status, page('Sign-in failed', `<p>${escape(error.error_description ?? error.message)}</p>`));
  });
});

// Everything lives in memory: there is nothing to flush, so a stop request ends it at once.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => process.exit(0));
}

console.log(`listening ${issuer}`);
