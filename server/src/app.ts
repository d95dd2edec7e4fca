/** Builds the whole server from its dependencies. main.ts listens with it; tests call inject() on it. */
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyWebsocket from '@fastify/websocket';
import { SOCKET_MAX_MESSAGE_BYTES } from '@tessera/common/constants';
import { isApiPath } from '@tessera/common/routes';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { type Config, REPO_ROOT } from './config';
import type { Database } from './db/client';
import { createPasswordService } from './features/accounts/passwords';
import { registerAccountRoutes } from './features/accounts/routes';
import { createSignupService } from './features/accounts/signup';
import { registerAgreements } from './features/agreements/register';
import { registerImpersonationRoutes } from './features/auth/impersonation';
import { createSessionRotation } from './features/auth/rotation';
import { registerAuthRoutes } from './features/auth/routes';
import { createAuthService } from './features/auth/service';
import { registerStepUpRoutes } from './features/auth/step-up';
import { registerJobs } from './features/bulk-jobs/register';
import { registerClientPackageRoutes } from './features/client-packages/routes';
import { registerClusters } from './features/clusters/register';
import { registerContact } from './features/contact/register';
import { createBilling } from './features/contracts/billing';
import { registerContractRoutes } from './features/contracts/routes';
import { registerDeployments } from './features/deployments/register';
import { registerHealth } from './features/health/register';
import { sessionAuthenticator } from './features/identities/caller';
import { createIdempotency } from './features/identities/idempotency';
import { registerLookupRoutes } from './features/identities/routes';
import { registerImageRoutes } from './features/images/routes';
import { registerInvoices } from './features/invoices/register';
import { keyAuthenticator } from './features/keys/authenticator';
import { registerKeyRoutes } from './features/keys/routes';
import { lazySealer, loadKeyEncryptionKey } from './features/keys/secrets';
import { createKeyVerifier } from './features/keys/verify';
import { registerMetrics } from './features/metrics/register';
import { registerOauthRoutes } from './features/oauth/routes';
import { registerOpenApiRoute } from './features/openapi/routes';
import { registerOrganizationRoutes } from './features/organizations/routes';
import { registerPartitions } from './features/partitions/register';
import { registerQueryConsole } from './features/query-console/register';
import { registerReleases } from './features/releases/register';
import { registerSamples } from './features/samples/register';
import { createSandboxGraph } from './features/sandbox-graph/register';
import { FITTED_MODEL } from './features/scoring/fitted';
import { registerSegments } from './features/segments/register';
import { registerSessionRoutes } from './features/sessions/routes';
import { createSessionService } from './features/sessions/service';
import { registerSshAccess } from './features/ssh-access/register';
import { registerStewardship } from './features/stewardship/register';
import { registerSubscriptions } from './features/subscriptions/register';
import { registerSupportChat } from './features/support-chat/register';
import { registerSystemRoutes } from './features/system/routes';
import { registerTemplateRoutes } from './features/templates/routes';
import { createTemplateStore } from './features/templates/store';
import { registerTermsRoutes } from './features/terms/routes';
import { type Limiter, openLimiter } from './features/throttle/limiter';
import { serverProcesses } from './features/throttle/outage';
import { openSlidingLimiter, type SlidingLimiter } from './features/throttle/sliding';
import { registerTwoFactorGate } from './features/two-factor/gate';
import { registerTwoFactorRoutes } from './features/two-factor/routes';
import { createTwoFactorService } from './features/two-factor/service';
import { createDatabaseMetering, type Metering } from './features/usage/metering';
import { registerUsageAlerts } from './features/usage-alerts/register';
import { notifyingMetering } from './features/usage-reports/live';
import { registerUsageReportRoutes } from './features/usage-reports/routes';
import { registerUsageRetention } from './features/usage-retention/register';
import { registerUsageRollups } from './features/usage-rollups/register';
import { createUserManagement } from './features/users/manage';
import { registerUserRoutes } from './features/users/routes';
import { registerWebhooks } from './features/webhooks/register';
import { registerAccessLog } from './http/access-log';
import { registerAuth } from './http/auth';
import { answerClientError } from './http/client-error';
import { registerCompression } from './http/compression';
import { registerConsole } from './http/console';
import { registerErrorHandler, sendError } from './http/error-handler';
import { registerRouteMethods } from './http/methods';
import { registerOriginCheck } from './http/origin';
import { registerRequestIdCheck, requestIdOf } from './http/request-id';
import { registerStandingGate } from './http/standing-gate';
import { serveNonWebSocketUpgrades } from './http/upgrade';
import { serverLogger } from './logger';
import { createMailer, type Mailer } from './mail';
import { registerRequestSpans } from './observability/tracing';
import { redisPlace } from './runtime';
import type { Fanout } from './socket/fanout';
import { createHub, type Hub } from './socket/hub';
import { registerSocket } from './socket/routes';
import { serverVersion } from './version';

export interface AppDeps {
  config: Config;
  database: Database;
  fanout: Fanout;
  /** A pino logger to use instead of one built from config (tests capture output this way). */
  logger?: Logger;
  /** Throttling counters to share (tests); otherwise opened from config and closed with the app. */
  limiter?: Limiter;
  /** Lookup rate-limit counters to share (tests); otherwise opened from config and closed with the app. */
  rates?: SlidingLimiter;
  /** Where lookups' usage goes; by default a row per call in the database. */
  metering?: Metering;
}

declare module 'fastify' {
  interface FastifyInstance {
    hub: Hub;
    serverVersion: string;
    mailer: Mailer;
  }
}

/** A bodiless PUT or DELETE sent with a JSON content type (as console clients do) has no body, not a bad one. */
function acceptEmptyJson(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, fanout } = deps;
  const app = Fastify({
    loggerInstance: deps.logger ?? serverLogger(config.logLevel), // access lines written asynchronously
    disableRequestLogging: true, // one access line per request, ours (http/access-log.ts)
    genReqId: requestIdOf, // a client's or balancer's X-Request-Id when valid (decision 0046)
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 10 * 1024 * 1024,
    return503OnClosing: false, // the drain's 503 is ours, with our body and Retry-After (http/error-handler.ts)
    clientErrorHandler: answerClientError, // Node's parser errors (431, 400, 408) with the same body too
    // Errors Fastify meets before routing (a malformed URL, say) get the same body as every other error.
    frameworkErrors: (error, _request, reply) => {
      void sendError(
        reply,
        400,
        'bad_request',
        error.code === 'FST_ERR_BAD_URL' ? 'The request URL is malformed.' : error.message,
      );
    },
  }) as unknown as FastifyInstance; // one instance type whether or not a pino logger was handed in
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  const allowedMethods = registerRouteMethods(app); // before any route: it notes each as it is declared
  registerRequestSpans(app); // first of the onRequest hooks: what follows runs inside the request's span
  registerAccessLog(app);
  registerRequestIdCheck(app);
  acceptEmptyJson(app);
  app.addHook('onSend', async (request, reply) => {
    // A replayed reply (Idempotency-Key) keeps the id of the request that was run, as its body does.
    if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', request.id);
    // API replies carry people's data or account state: no cache (browser, proxy or CDN) may keep them.
    if (!reply.hasHeader('cache-control') && isApiPath(request.url.split('?')[0] ?? '/')) {
      reply.header('cache-control', 'no-store');
    }
  });

  const version = serverVersion(config.staticDir, config.versionOverride);
  const hub = createHub(fanout);
  app.decorate('hub', hub);
  app.decorate('serverVersion', version);
  const cookies = { secure: config.publicUrl.protocol === 'https:' };
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    dataDir: config.dataDir,
    publicUrl: config.publicUrl.href,
    logger: app.log,
  });
  app.decorate('mailer', mailer);
  app.addHook('onClose', () => mailer.close());
  const redis = await redisPlace(config, database); // this deployment's namespace in Redis (decision 0019)
  // The machine's processes share each limit while Redis is away (decision 0050); a trip is logged once per pause.
  const metrics = registerMetrics(app, { database, token: config.metricsToken, redisConfigured: !!config.redisUrl });
  const counters = {
    processes: serverProcesses(config.webConcurrency),
    onTrip: (error: unknown, pauseMs: number) => {
      metrics.redisTripped(pauseMs);
      app.log.warn({ err: error, pauseMs }, 'Redis unreachable: counting in this process for a while');
    },
  };
  const limiter = deps.limiter ?? (await openLimiter(redis, counters));
  if (!deps.limiter) app.addHook('onClose', () => limiter.close());
  const sessions = createSessionService(database, (id) => hub.endSession(id));

  await registerCompression(app); // before any route: it hooks each route as it is declared
  await app.register(fastifyCookie);
  // Limits are set per route as well; these are the ceiling for any multipart request.
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 20, parts: 21 } });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: SOCKET_MAX_MESSAGE_BYTES },
    // Tell browsers why the socket closes (1001, going away) so they reconnect rather than give up.
    preClose(done) {
      hub.closeAll();
      this.websocketServer.close(() => done());
    },
  });
  registerAuth(app, sessions, cookies);
  // The build's version until a deployment to the serving environment is known (features/deployments).
  const toldVersion = () => hub.version ?? version;
  registerOriginCheck(app, config.publicUrl);
  registerStandingGate(app);
  const sealer = lazySealer(() => loadKeyEncryptionKey(database, config.keyEncryptionKey));
  const twoFactor = createTwoFactorService({
    database,
    sealer,
    sessions,
    hub,
    limiter,
    requiredForStaff: config.require2faForStaff,
  });
  registerTwoFactorGate(app, { twoFactor, required: config.require2faForStaff });
  const rotation = createSessionRotation({ database, sessions, hub, cookies });

  registerSystemRoutes(app, { database, version: toldVersion });
  registerHealth(app, { database, redisUrl: config.redisUrl });
  registerOpenApiRoute(app);
  registerClientPackageRoutes(app, { dir: config.clientsDir });
  registerAuthRoutes(app, {
    auth: createAuthService({ database, sessions, hub, limiter, twoFactor }),
    cookies,
    twoFactor,
  });
  registerTwoFactorRoutes(app, { twoFactor, sessions, cookies });
  registerTermsRoutes(app, { database, rotation });
  registerImpersonationRoutes(app, { database, rotation });
  registerAgreements(app, { database });
  const mail = { database, mailer, limiter, publicUrl: config.publicUrl };
  registerAccountRoutes(app, {
    signup: createSignupService(mail),
    passwords: createPasswordService({ ...mail, sessions, hub, cookies }),
  });
  registerOauthRoutes(app, { config, database, sessions, limiter, cookies, twoFactor });
  registerOrganizationRoutes(app, { database, hub });
  registerUserRoutes(app, {
    database,
    limiter,
    manage: createUserManagement({ database, sessions, hub, mailer, publicUrl: config.publicUrl }),
  });
  registerSessionRoutes(app, { database, sessions, hub });
  registerImageRoutes(app, { database });
  const verifier = createKeyVerifier({ database, fanout, sealer });
  registerKeyRoutes(app, { database, hub, sealer, verifier });
  registerSshAccess(app, { database, sealer });
  const billing = createBilling({ database, fanout });
  const rates = deps.rates ?? (await openSlidingLimiter(redis, counters));
  if (!deps.rates) app.addHook('onClose', () => rates.close());
  registerContractRoutes(app, { database, hub, billing });
  registerUsageReportRoutes(app, { database, verifier });
  const usageAlerts = registerUsageAlerts(app, { database, hub, mailer, publicUrl: config.publicUrl });
  registerUsageRetention(app, { database, config });
  registerUsageRollups(app, { database });
  registerWebhooks(app, { database, hub, mailer, sealer, settings: config.webhooks, publicUrl: config.publicUrl });
  registerPartitions(app, { database });
  registerInvoices(app, { database, seller: config.seller });
  registerContact(app, { database, mailer, limiter, publicUrl: config.publicUrl, supportEmail: config.supportEmail });
  registerStepUpRoutes(app, { database, limiter });
  registerClusters(app, { database, hub, clusters: config.clusters });
  registerQueryConsole(app, { database, clusters: config.clusters, timeoutMs: config.queryTimeoutMs });
  const stewardship = registerStewardship(app, { database, mailer, limiter, config });
  registerSupportChat(app, { database, hub, mailer, limiter, config });
  const lookups = {
    database,
    sandbox: createSandboxGraph(database),
    metering: usageAlerts.watching(notifyingMetering(deps.metering ?? createDatabaseMetering(database), hub)),
    billing,
    rates,
    idempotency: createIdempotency(database),
    templates: createTemplateStore(database, app, { webConcurrency: config.webConcurrency }),
    authenticators: [keyAuthenticator(verifier), sessionAuthenticator],
    model: FITTED_MODEL,
    auditHasher: stewardship.auditHasher,
    streamIdleMs: config.streamIdleSeconds * 1000,
  };
  await app.register(async (scope) => {
    // A PUT lookup's CSV body is read as it arrives, never buffered whole (features/identities/csv-stream.ts).
    scope.addContentTypeParser(['text/csv', 'application/csv'], (_request, payload, done) => done(null, payload));
    registerLookupRoutes(scope, lookups);
  });
  await registerJobs(app, { lookups, settings: config.jobs, publicUrl: config.publicUrl });
  registerTemplateRoutes(app, { database, hub, store: lookups.templates, lookups });
  registerSubscriptions(app, { ...lookups, worker: config.webhooks.worker });
  registerSamples(app, { database, sandbox: lookups.sandbox });
  registerSegments(app, lookups);
  registerReleases(app, { database, hub, repoDir: REPO_ROOT, releasesDir: config.releasesDir });
  await registerDeployments(app, { database, hub, config, repoDir: REPO_ROOT, baseVersion: version });
  registerSocket(app, { hub, database, publicUrl: config.publicUrl, version });
  await registerConsole(app, {
    staticDir: config.staticDir,
    assetPrefix: config.assetPrefix,
    ciHost: config.ciHost,
    version: toldVersion,
    allowedMethods,
  });

  await app.ready();
  serveNonWebSocketUpgrades(app.server); // after ready: @fastify/websocket's listener is in place
  return app;
}
