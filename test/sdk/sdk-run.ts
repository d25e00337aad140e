import type { FakeModel } from '../fakes/model-server.ts';
import type { SDKMessage } from '../../src/sdk/index.ts';

/** The environment a query() runs with against the fake model server (no real key, fast retries). */
export const envFor = (m: FakeModel, home: string) => ({
  ANTHROPIC_API_KEY: 'k',
  ANTHROPIC_BASE_URL: m.anthropicBaseUrl,
  HOME: home,
  ASSISTANT_RETRY_BASE_MS: '10',
});

/** Every message a query yields, in order. */
export async function collect(q: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of q) out.push(m);
  return out;
}
