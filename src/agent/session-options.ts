import type { SettingsWatch } from '../config/watch.ts';
import type { HookSpec } from '../hooks/schema.ts';
import type { McpManager } from '../mcp/manager.ts';
import type { PermissionMode } from '../permissions/mode-names.ts';
import type { RuleSet } from '../permissions/rules.ts';
import type { ModelHandle } from '../providers/types.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { AgentDef } from './agent-defs.ts';
import type { AskFn, EventSink } from './events.ts';

/** What a Session is opened with (set-up's `createSession` fills it from a Setup). */
export interface SessionOptions {
  cwd: string;
  home: string;
  model: ModelHandle;
  mode: PermissionMode;
  additionalDirs: readonly string[];
  env: Readonly<Record<string, string>>;
  emit: EventSink;
  /** Answers permission questions (the terminal UI; headless refuses). */
  ask: AskFn;
  /** A person answers `ask` (terminal UI): Notification hooks fire while a question waits. */
  interactive?: boolean;
  version: string;
  maxTurns?: number;
  /** Transcript to continue (`-c`, `-r`). */
  resume?: { sessionId: string; path: string };
  /** The id of a new session (default: a random UUID); a resumed one keeps its own. */
  id?: string;
  hooks?: HookSpec[];
  /** `--settings FILE`: a settings file of the command line, protected like the others (SPEC §11.16). */
  settingsFiles?: string[];
  /** Settings snapshot: a change during the session is reported, not applied. */
  watch?: SettingsWatch;
  rules?: RuleSet;
  /** Compact automatically when the conversation passes this share of the context window; false: never. */
  autoCompact?: { threshold: number } | false;
  /** `--append-system-prompt`. */
  appendSystemPrompt?: string;
  /** The ASSISTANT.md section of the system prompt (context/memory.ts). */
  memory?: string;
  /** The verification command run after changes, before the answer (SPEC §8). */
  verify?: string;
  /** The OS sandbox Bash commands run in (SPEC §13); closed when the session ends. */
  sandbox?: Sandbox;
  /** The session's MCP servers (SPEC §12), already starting: their tools join the list; ended with the session. */
  mcp?: McpManager;
  now?: Date;
  /** The agents Task can start (agents.ts `loadAgents`); default: the built-ins. */
  agents?: AgentDef[];
  /** Sets up a custom agent's `model:` (set-up's resolver). */
  resolveModel?(spec: string): Promise<ModelHandle>;
}

/** A call the permission gate refused (the SDK's `permission_denials`). */
export interface Denial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
}
