import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, type Config } from '../../core/config.ts';
import type { AppDeps } from '../../core/deps.ts';
import type { Logger } from '../../core/log.ts';
import { checkHealth } from '../../services/ops/check.ts';
import type { GatewayState, HealthReport } from '../../core/ops/health.ts';
import { createMetrics, type Metrics } from '../../services/ops/metrics.ts';

export interface OpsServer {
  /** Where it listens, e.g. `http://127.0.0.1:9464`. */
  url: string;
  close(): Promise<void>;
}

export interface OpsServerOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  metrics: Metrics;
  health: () => Promise<HealthReport>;
  log: Logger;
}

/**
 * The operator's endpoint: `GET /healthz` answers 200 with the checks as JSON when healthy and 503
 * when not (what a load balancer, systemd watchdog script or uptime monitor acts on); `GET /metrics`
 * answers in Prometheus' text format. Nothing else is served, and nothing here changes state.
 */
export async function startOpsServer(o: OpsServerOptions): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Only GET and HEAD.\n');
      return;
    }
    const send = (status: number, type: string, body: string) =>
      res
        .writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
        .end(req.method === 'HEAD' ? undefined : body);
    const fail = (err: unknown) => {
      o.log.error({ err, path }, 'ops endpoint failed');
      if (!res.headersSent) send(500, 'text/plain', "Internal error; see the bot's log.\n");
    };
    if (path === '/healthz') {
      o.health().then(
        (report) => send(report.healthy ? 200 : 503, 'application/json', `${JSON.stringify(report, null, 2)}\n`),
        fail,
      );
    } else if (path === '/metrics') {
      o.metrics.registry.metrics().then((text) => send(200, o.metrics.registry.contentType, text), fail);
    } else {
      send(404, 'text/plain', 'Not found. This endpoint serves /healthz and /metrics.\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new ConfigError(
          err.code === 'EADDRINUSE'
            ? `METRICS_PORT ${o.port} is already in use on ${o.host}: pick another port or stop what listens there.`
            : `The metrics endpoint cannot listen on ${o.host}:${o.port} (METRICS_HOST, METRICS_PORT): ${err.message}`,
        ),
      ),
    );
    server.listen(o.port, o.host, resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the platform adapter offers the endpoint (the Discord ports do). */
export interface OpsSource {
  gateway(): GatewayState;
  /** Starts timing interactions into the metrics; returns a function that stops it. */
  watchLatency(sink: {
    observe: Metrics['observeInteraction'];
    unanswered: Metrics['interactionUnanswered'];
  }): () => void;
}

/**
 * The endpoint wired to the running bot (METRICS_PORT set): metrics from the database and this
 * process, interaction latency from the adapter, the health verdict with the configured limits.
 */
export async function startOpsEndpoint(
  deps: Pick<AppDeps, 'db' | 'now' | 'log'>,
  config: Config['ops'] & { port: number },
  source: OpsSource,
): Promise<OpsServer> {
  const startedAt = deps.now();
  const metrics = createMetrics(deps, () => source.gateway());
  const unwatch = source.watchLatency({
    observe: metrics.observeInteraction,
    unanswered: metrics.interactionUnanswered,
  });
  try {
    const server = await startOpsServer({
      host: config.host,
      port: config.port,
      metrics,
      log: deps.log,
      health: () => checkHealth(deps, source.gateway(), { ...config, startedAt }),
    });
    deps.log.info({ url: server.url }, 'health and metrics endpoint listening');
    return {
      url: server.url,
      async close() {
        unwatch();
        await server.close();
      },
    };
  } catch (err) {
    unwatch();
    throw err;
  }
}
