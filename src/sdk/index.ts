/**
 * The SDK entry (`import { query } from 'assistant-code'`, built to dist/sdk.js; types in
 * dist/sdk.d.ts from public.ts). docs/sdk.md describes every option, message and callback.
 */
import type * as Public from './public.ts';
import type { StreamJsonLineT } from '../headless/stream-schema.ts';
import { query } from './query.ts';
import { AssistantError } from './errors.ts';

export { query, AssistantError };
export type * from './public.ts';

// The implementation keeps the published signatures, and every stream-json line fits the published message type.
const _query: typeof Public.query = query;
const _line = (l: StreamJsonLineT): Public.SDKMessage => l;
void _query; void _line;
