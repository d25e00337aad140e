import { expandAtPaths, type Expansion } from '../context/at-paths.ts';
import type { McpManager } from '../mcp/manager.ts';
import { findMcpRefs, readMcpRefs, withoutMcpRefs } from '../mcp/resources.ts';
import type { Behavior } from '../permissions/modes.ts';
import type { ModelHandle } from '../providers/types.ts';
import type { ToolContext } from '../tools/types.ts';

interface ReferenceContext {
  cwd: string;
  home: string;
  model: ModelHandle;
  mcp?: McpManager;
  fileState: ToolContext['fileState'];
  /** How a read of `abs` is decided (the session's Read rules and mode). */
  readBehavior(abs: string): Behavior;
  /** Images the user dropped into the terminal UI: attached by their `@` references even outside the project. */
  dropped: ReadonlySet<string>;
}

/**
 * Resolves `@path` references of a prompt into attachments (SPEC §6), checked by the Read rules,
 * and `@SERVER:URI` references into an MCP server's resources (SPEC §12); attached files count as
 * read. Nothing is sent when a reference fails.
 */
export async function expandReferences(prompt: string, c: ReferenceContext, signal?: AbortSignal): Promise<Expansion> {
  const refs = c.mcp ? findMcpRefs(prompt, new Set(c.mcp.statuses().map((s) => s.name))) : [];
  if (refs.length && c.mcp) {
    const [files, resources] = await Promise.all([
      expandPaths(withoutMcpRefs(prompt, refs), c, signal),
      readMcpRefs(refs, c.mcp, { signal, imagesRefused: c.model.facts?.images === false ? 'no images' : undefined }),
    ]);
    const errors = [...(files.ok ? [] : files.errors), ...resources.errors];
    if (errors.length || !files.ok) return { ok: false, errors };
    return {
      ok: true,
      prompt,
      attachments: [
        ...files.attachments,
        ...resources.attachments.map((a) => ({ ref: a.ref, path: a.uri, kind: 'resource' as const, text: a.text, image: a.image })),
      ],
    };
  }
  return expandPaths(prompt, c, signal);
}

function expandPaths(prompt: string, c: ReferenceContext, signal?: AbortSignal): Promise<Expansion> {
  return expandAtPaths(prompt, {
    cwd: c.cwd,
    home: c.home,
    fileState: c.fileState,
    signal,
    imagesRefused: c.model.facts?.images === false ? `the model ${c.model.label} does not take images` : undefined,
    canRead: (abs) => {
      const b = c.readBehavior(abs);
      // An image the user dragged into the terminal (or pasted the path of) is theirs to show, wherever it is; deny rules still hold.
      return b === 'ask' && c.dropped.has(abs) ? 'allow' : b;
    },
  });
}
