/**
 * The SDK entry (`import { query } from 'assistant-code'`, built to dist/sdk.js; types in
 * dist/sdk.d.ts from public.ts). docs/sdk.md describes every option, message and callback.
 */
import type * as Public from './public.ts';
import type { z } from 'zod';
import type { ResultLine, SystemInitLine, WarningLine } from '../headless/stream-schema.ts';
import { query } from './query.ts';
import { AssistantError } from './errors.ts';

export { query, AssistantError };
export type * from './public.ts';

// The implementation keeps the published signature, and the schemas' lines fit the published types
// (the messages with content blocks are checked at run time: test/sdk, test/headless/stream-schema.test.ts).
const _query: typeof Public.query = query;
const _lines = (
  r: z.output<typeof ResultLine>,
  i: z.output<typeof SystemInitLine>,
  w: z.output<typeof WarningLine>,
): Public.SDKMessage[] => [r, i, w];
void _query;
void _lines;
