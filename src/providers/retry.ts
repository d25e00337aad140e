import type { ProviderErrorInfo, StreamEvent } from './types.ts';

interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Defaults, overridable by ASSISTANT_MAX_RETRIES and ASSISTANT_RETRY_BASE_MS. */
export function retryPolicyFromEnv(env: NodeJS.ProcessEnv): RetryPolicy {
  const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
  return {
    maxRetries: num(env.ASSISTANT_MAX_RETRIES, 5),
    baseDelayMs: num(env.ASSISTANT_RETRY_BASE_MS, 1000),
    maxDelayMs: 60_000,
  };
}

export function backoffMs(attempt: number, policy: RetryPolicy, error: ProviderErrorInfo): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, 5 * 60_000);
  const exp = policy.baseDelayMs * 2 ** (attempt - 1);
  const jitter = exp * 0.2 * Math.random();
  return Math.min(policy.maxDelayMs, Math.round(exp + jitter));
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt` until it finishes, fails for good, or is aborted. Before each retry it emits a
 * `retry` event (the UI shows a countdown; consumers drop partial output of the failed attempt).
 * Never throws.
 */
export async function* withRetries(
  attempt: () => AsyncIterable<StreamEvent>,
  policy: RetryPolicy,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent> {
  for (let n = 0; ; n++) {
    let failure: ProviderErrorInfo | undefined;
    for await (const ev of attempt()) {
      if (ev.type === 'error' && ev.error.retryable && n < policy.maxRetries) {
        failure = ev.error;
        break;
      }
      if (ev.type === 'error' && ev.error.retryable) {
        yield {
          type: 'error',
          error: {
            ...ev.error,
            message: `${ev.error.message} (gave up after ${n + 1} attempts: the first and ${n} ${n === 1 ? 'retry' : 'retries'})`,
          },
        };
        return;
      }
      yield ev;
      if (ev.type === 'finish' || ev.type === 'error' || ev.type === 'aborted') return;
    }
    if (!failure) return;
    const delayMs = backoffMs(n + 1, policy, failure);
    yield { type: 'retry', attempt: n + 1, maxRetries: policy.maxRetries, delayMs, error: failure };
    if (!(await sleep(delayMs, signal))) {
      yield { type: 'aborted' };
      return;
    }
  }
}
