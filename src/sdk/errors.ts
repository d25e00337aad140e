/** The SDK's one error type (declared for callers in public.ts): a bad option, bad configuration, a failed set-up. */
export class AssistantError extends Error {
  override readonly name = 'AssistantError';
  constructor(
    readonly kind: 'options' | 'config' | 'setup',
    message: string,
    readonly exitCode = 2,
    readonly issues: Array<{ path: string; message: string }> = [],
  ) {
    super(message);
  }
}
