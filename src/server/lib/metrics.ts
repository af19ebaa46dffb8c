import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { messageType } from './ipc';

/**
 * The process's metrics, in one registry (not prom-client's global one, which libraries may also
 * write to). Everything here is cheap to update on the hot path: a counter or histogram bump.
 * With WEB_CONCURRENCY > 1 the primary sums every worker's registry with its own
 * (prom-client's AggregatorRegistry) and /metrics, on any worker, answers that sum.
 */
export const registry = new Registry();
// Process metrics, among them the event loop's lag (nodejs_eventloop_lag_seconds, p50/p90/p99).
collectDefaultMetrics({ register: registry });

const register = { registers: [registry] };

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  ...register,
});

export const ledgerWriterBatchSize = new Histogram({
  name: 'ledger_writer_batch_size',
  help: 'Entries posted per ledger writer batch',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
  ...register,
});

export const ledgerWriterQueueDepth = new Gauge({
  name: 'ledger_writer_queue_depth',
  help: 'Postings waiting for the ledger writer (past its limit the bank answers 503)',
  ...register,
});

export const ledgerWriterFallbacks = new Counter({
  name: 'ledger_writer_fallbacks_total',
  help: 'Ledger writer batches that failed and were posted again one entry at a time',
  ...register,
});

/** Background jobs that failed (a retry may still succeed); the job runner increments it. */
export const jobsFailed = new Counter({
  name: 'jobs_failed_total',
  help: 'Background job runs that failed, by queue',
  labelNames: ['queue'] as const,
  ...register,
});

/**
 * Jobs by queue and state (waiting, running, failed), as the job runner last counted them. The
 * counts are of the whole database, so processes are not summed: the cluster shows the largest.
 */
export const jobsQueueDepth = new Gauge({
  name: 'jobs_queue_depth',
  help: 'Background jobs by queue and state',
  labelNames: ['queue', 'state'] as const,
  aggregator: 'max',
  ...register,
});

export interface PoolStats {
  /** Connections open (busy or idle). */
  total: number;
  idle: number;
  /** Queries waiting for a connection: above zero for long means the pool is too small. */
  waiting: number;
}

const pools = new Set<() => PoolStats>();
const poolGauge = (name: string, help: string, field: keyof PoolStats) =>
  new Gauge({
    name,
    help,
    ...register,
    collect() {
      let sum = 0;
      for (const stats of pools) sum += stats()[field];
      this.set(sum);
    },
  });
poolGauge('db_pool_total', 'Database connections open', 'total');
poolGauge('db_pool_idle', 'Database connections open and idle', 'idle');
poolGauge('db_pool_waiting', 'Queries waiting for a database connection', 'waiting');

/** Reports a connection pool in db_pool_*; returns the function that stops it (on close). */
export function trackPool(stats: () => PoolStats): () => void {
  pools.add(stats);
  return () => pools.delete(stats);
}

export interface MetricsPage {
  contentType: string;
  text: string;
}

/** Where /metrics reads from: this process's registry, or (in a cluster worker) the primary's sum. */
export type MetricsSource = () => Promise<MetricsPage>;

export const localMetrics: MetricsSource = async () => ({ contentType: registry.contentType, text: await registry.metrics() });

// ---------------------------------------------------------------- cluster

/** Messages between the primary and its workers (node:cluster IPC). */
type MetricsMessage =
  | { type: 'll:metrics:get'; id: string }
  | { type: 'll:metrics:page'; id: string; text?: string; error?: string }
  | { type: 'll:metrics:collect'; id: string }
  | { type: 'll:metrics:json'; id: string; metrics: object[] };

const COLLECT_TIMEOUT_MS = 3000;

const isMetricsMessage = (message: unknown): message is MetricsMessage => {
  const type = messageType(message);
  return typeof type === 'string' && type.startsWith('ll:metrics:');
};

/**
 * In the primary: sums every worker's registry and the primary's own into one page, for the
 * primary's /metrics and for a worker's (asked over IPC). A worker that does not answer in time is
 * left out rather than failing the scrape.
 */
export function serveClusterMetrics(): MetricsSource {
  const waiting = new Map<string, { pending: number; parts: object[][]; finish: () => void }>();
  const clusterPage = async (): Promise<string> => {
    const id = randomUUID();
    const parts: object[][] = [await registry.getMetricsAsJSON()];
    const workers = Object.values(cluster.workers ?? {}).filter((each) => each?.isConnected());
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => finish(), COLLECT_TIMEOUT_MS);
      const finish = () => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve();
      };
      waiting.set(id, { pending: workers.length, parts, finish });
      for (const each of workers) each?.send({ type: 'll:metrics:collect', id } satisfies MetricsMessage);
      if (workers.length === 0) finish();
    });
    return AggregatorRegistry.aggregate(parts).metrics();
  };
  cluster.on('message', (worker, message: unknown) => {
    if (!isMetricsMessage(message)) return;
    if (message.type === 'll:metrics:json') {
      const gathering = waiting.get(message.id);
      if (!gathering) return;
      gathering.parts.push(message.metrics);
      gathering.pending -= 1;
      if (gathering.pending === 0) gathering.finish();
      return;
    }
    if (message.type !== 'll:metrics:get') return;
    clusterPage().then(
      (text) => worker.isConnected() && worker.send({ type: 'll:metrics:page', id: message.id, text } satisfies MetricsMessage),
      (error: unknown) => worker.isConnected() && worker.send({ type: 'll:metrics:page', id: message.id, error: String(error) } satisfies MetricsMessage),
    );
  });
  return async () => ({ contentType: registry.contentType, text: await clusterPage() });
}

/**
 * In a worker: hands this process's registry to the primary when it collects, and returns the
 * source /metrics reads: the cluster's sum, asked of the primary.
 */
export function clusterWorkerMetrics(): MetricsSource {
  const pages = new Map<string, (message: Extract<MetricsMessage, { type: 'll:metrics:page' }>) => void>();
  process.on('message', (message: unknown) => {
    if (!isMetricsMessage(message)) return;
    if (message.type === 'll:metrics:collect') {
      void registry.getMetricsAsJSON().then((metrics) => process.send?.({ type: 'll:metrics:json', id: message.id, metrics } satisfies MetricsMessage));
    } else if (message.type === 'll:metrics:page') {
      pages.get(message.id)?.(message);
    }
  });
  return () =>
    new Promise<MetricsPage>((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        pages.delete(id);
        reject(new Error('the primary did not answer with the metrics'));
      }, COLLECT_TIMEOUT_MS * 2);
      pages.set(id, (page) => {
        clearTimeout(timer);
        pages.delete(id);
        if (page.text === undefined) reject(new Error(page.error ?? 'no metrics'));
        else resolve({ contentType: registry.contentType, text: page.text });
      });
      process.send?.({ type: 'll:metrics:get', id } satisfies MetricsMessage);
    });
}

/** Signed-in requests whose session the process's cache answered (hit) or that looked it up (miss). */
export const sessionCacheLookups = new Counter({
  name: 'session_cache_lookups_total',
  help: 'Session lookups by whether the process session cache answered them',
  labelNames: ['result'] as const,
  ...register,
});
