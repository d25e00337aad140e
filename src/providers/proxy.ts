/**
 * `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (and their lower-case forms) for every request the
 * process makes through `fetch` once a model is set up: the providers, the context-window probes. Node's
 * own support (`http.setGlobalProxyFromEnv`, Node 24.5 and later) where the Node version has it;
 * else undici's `EnvHttpProxyAgent` with undici's own `fetch`. A CONNECT tunnel carries HTTPS, so
 * the proxy never sees the keys. Custom CA certificates (a TLS-inspecting proxy) come from
 * `NODE_EXTRA_CA_CERTS`, which Node reads at start.
 */
const VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

let applied: Promise<'node' | 'undici' | undefined> | undefined;

/** Whether any proxy variable is set (an empty one is unset). */
export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return VARS.some((k) => env[k]?.trim());
}

type HttpWithProxy = typeof import('node:http') & { setGlobalProxyFromEnv?(env?: NodeJS.ProcessEnv): void };

/** Routes the process's requests through the proxy the environment names; once per process. Returns how, or undefined when no proxy is set. */
export function useProxyFromEnv(env: NodeJS.ProcessEnv, how: 'auto' | 'undici' = 'auto'): Promise<'node' | 'undici' | undefined> {
  return (applied ??= (async () => {
    if (!proxyConfigured(env)) return undefined;
    const http = process.getBuiltinModule('node:http') as HttpWithProxy;
    if (how === 'auto' && typeof http.setGlobalProxyFromEnv === 'function') {
      http.setGlobalProxyFromEnv(env);
      return 'node';
    }
    const undici = await import('undici');
    const pick = (k: string) => env[k]?.trim() || env[k.toLowerCase()]?.trim() || undefined;
    undici.setGlobalDispatcher(
      new undici.EnvHttpProxyAgent({ httpProxy: pick('HTTP_PROXY'), httpsProxy: pick('HTTPS_PROXY'), noProxy: pick('NO_PROXY') }),
    );
    globalThis.fetch = undici.fetch as unknown as typeof fetch;
    return 'undici';
  })());
}
