import type { z } from 'zod';
import type { FileStateMap } from '../fs/file-state.ts';
import type { ImageData } from '../fs/image-file.ts';

export type { ImageData };

/** Called before a tool changes a file, with its previous content, as bytes to keep it exact (null: it did not exist). */
type BeforeChangeFn = (absPath: string, previous: Uint8Array | string | null) => void;

export interface ToolContext {
  /** Project root: relative paths resolve here; the Bash shell starts here. */
  cwd: string;
  signal: AbortSignal;
  fileState: FileStateMap;
  /** Bash keeps its working directory between calls in here. */
  shell: { cwd: string };
  /** Extra environment for commands (settings `env`). */
  env: Record<string, string>;
  /** Checkpoint hook for /rewind (SPEC §9). Optional. */
  beforeChange?: BeforeChangeFn;
  /** Is this file (absolute) kept from `tool` by a Read deny rule? Grep, Glob and LS leave such files out of results. */
  readDenied?: (tool: string, absPath: string) => boolean;
  /** The OS sandbox Bash commands run in (SPEC §13); absent when it is off. */
  sandbox?: CommandSandbox;
  /** Output as it comes, for the screen (Bash's stdout and stderr); the result still has all of it. */
  progress?: (chunk: string) => void;
  /** The id of the tool call being run (the Task tool marks its subagent's events with it). */
  callId?: string;
}

/** What the Bash tool needs of the OS sandbox (sandbox/sandbox.ts). */
interface CommandSandbox {
  /** Does this call run inside (not an excluded command, not a permitted retry outside)? */
  runsInside(command: string, disable?: unknown): Promise<boolean>;
  /**
   * `argv` made ready to run inside, in `cwd`: spawn `file args` with `env` and `fds` as descriptors
   * 4, 5, …; `finish` with the command's output once it ended says what the sandbox stopped.
   * Rejects when the sandbox cannot start (the command must then not run).
   */
  wrap(
    argv: string[],
    cwd: string,
    env: NodeJS.ProcessEnv,
  ): Promise<{
    file: string;
    args: string[];
    env: NodeJS.ProcessEnv;
    fds: number[];
    finish(output: string): { report?: string; summary?: string };
  }>;
}

/** A tool's result has two audiences: the model (`output`) and people/hooks (`display`, `response`). */
export interface ToolResult {
  /** Text the model reads. */
  output: string;
  isError?: boolean;
  /** Short human summary for the UI ("Read 120 lines", a diff). */
  display?: string;
  /** Claude Code–shaped `tool_response` for PostToolUse hooks (SPEC §11.1). */
  response?: unknown;
  /** Images the tool returned (Read of an image, MCP tools), sent to models that take images (SPEC §12); `output` names each. */
  images?: ImageData[];
}

/** A tool's declared kind of access (SPEC §5, §12). */
export type ToolAccess = 'read' | 'edit' | 'execute' | 'other';

/**
 * The rule family a tool belongs to (SPEC §5): rules naming the family (`Read(…)`, `Edit(…)`) cover
 * it too, its rules' specifiers are path patterns, and its calls are decided on the path they name.
 */
export type RuleFamily = 'Read' | 'Edit';

/** What permissions, modes, verification and the UI know of a tool: its ToolDef's kind fields (tools/kinds.ts). */
export interface ToolKind {
  access: ToolAccess;
  family?: RuleFamily;
  /** What the path a call names is: a `file` (outside the project, its directory is what to add) or a `dir` to search. */
  pathIs?: 'file' | 'dir';
  /** Changes nothing by itself (each of its effects is decided on its own): runs without a question in every mode; deny rules still apply. */
  noApproval?: boolean;
}

/** Tool name → kind, for every tool a session may call or a rule may name (tools/kinds.ts `toolKinds`). */
export type ToolKinds = ReadonlyMap<string, ToolKind>;

export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Sibling .md file's text; what the model is told about the tool. */
  description: string;
  schema: S;
  /** The input JSON Schema the model sees, when it is given as is rather than made from `schema` (MCP tools: the server's). */
  inputJsonSchema?: Record<string, unknown>;
  /** Read-only tools may run concurrently and run in Plan Mode. */
  readOnly: boolean;
  /**
   * What the tool does, for permissions and modes (absent: `other`). With no `family`, `read` runs in
   * Plan Mode (asking like any other) and anything else is refused there; all ask in Normal and
   * Auto-Accept mode unless a rule allows them. A `read` tool of the Read family runs without asking
   * inside the project (and the UI groups its calls); an `edit` tool of the Edit family is accepted
   * by Auto-Accept inside the project and asks on protected files.
   */
  access?: ToolAccess;
  /** Its rule family (Read: reads files, Edit: changes them); absent: rules name it alone. */
  family?: RuleFamily;
  /** What its `file_path`/`path` input names (with a `family`). */
  pathIs?: 'file' | 'dir';
  /** Changes nothing by itself: no question in any mode (see ToolKind). */
  noApproval?: boolean;
  /** The file a call concerns (for ASSISTANT_FILE_PATH and path rules), absolute. */
  filePath?(input: z.infer<S>, cwd: string): string | undefined;
  /**
   * Checks a valid input against the world before anyone is asked (a file never read, missing, or
   * without the text to replace), as Claude Code's `validateInput`: a call that cannot work says so
   * instead of costing a permission question. Runs after deny rules and protected paths, only when
   * the call would ask. Reads only; `execute` checks again when it runs.
   */
  check?(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult | undefined>;
  /** Never throws for expected failures: returns `{isError: true}` with a message the model can act on. */
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}
