import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { loadCommands, type LoadedCommands } from '../../commands/loader.ts';
import { mcpResourceCandidates, mcpServerCandidates, pathCandidates, slashCandidates, type Candidate } from '../complete.ts';
import type { Session } from '../../agent/session.ts';
import * as ed from '../editor.ts';
import { FileIndex, fuzzyPaths } from '../file-index.ts';

const SHOWN = 8;

interface Menu {
  kind: 'slash' | 'path';
  items: Candidate[];
  sel: number;
  start: number;
  token: string;
}

/**
 * The menu under the input, kept up to date as you type (as Claude Code's): `/` at the start of
 * the input lists the commands that match; `@` lists paths: the directory typed so far
 * (`@src/co`), or, for a bare name (`@Button`), the project's files by fuzzy match on their name.
 * Esc hides it until the text changes.
 */
export function useCompletionMenu(where: { cwd: string; home: string; mcp?: () => Session['mcp'] }, buf: ed.Buffer) {
  const [menu, setMenu] = useState<Menu | undefined>(undefined);
  const dismissed = useRef<string | undefined>(undefined);
  const index = useMemo(() => new FileIndex(where.cwd), [where.cwd]);
  const commands = useRef<{ at: number; loaded?: LoadedCommands }>({ at: 0 });
  const loaded = () => {
    if (!commands.current.loaded || Date.now() - commands.current.at > 2000) {
      commands.current = { at: Date.now(), loaded: loadCommands({ projectRoot: where.cwd, home: where.home }) };
    }
    return commands.current.loaded!;
  };
  useEffect(() => {
    let live = true;
    const { token, start } = ed.currentToken(buf);
    const show = (kind: Menu['kind'], items: Candidate[]) => {
      if (!live) return;
      setMenu((old) => {
        if (items.length === 0) return undefined;
        // Keep the chosen item chosen while it still matches.
        const keep = old ? items.findIndex((c) => c.value === old.items[old.sel]?.value) : -1;
        return { kind, items, sel: Math.max(0, keep), start, token };
      });
    };
    if (dismissed.current !== undefined && dismissed.current !== buf.text) dismissed.current = undefined;
    if (dismissed.current !== undefined) setMenu(undefined);
    else if (token.startsWith('/') && start === 0) show('slash', slashCandidates(token, loaded()));
    else if (token.startsWith('@') && !token.startsWith('@"')) {
      const q = token.slice(1);
      const mcp = where.mcp?.();
      // `@server:uri`: an MCP server's resources (listed lazily); `@gi` also offers the server `github:`.
      const resources = mcpResourceCandidates(token, mcp);
      void resources.then((items) => {
        if (items) show('path', items);
        else if (q === '' || q.includes('/') || q.startsWith('~')) show('path', pathCandidates(token, where.cwd, where.home));
        else void index.list().then((paths) => show('path', [...mcpServerCandidates(q, mcp), ...fuzzyPaths(q, paths)]));
      });
    } else setMenu(undefined);
    return () => {
      live = false;
    };
  }, [buf.text, buf.cursor]);

  return {
    menu,
    move(by: number) {
      setMenu((m) => (m ? { ...m, sel: (m.sel + by + m.items.length) % m.items.length } : m));
    },
    dismiss(text: string) {
      dismissed.current = text;
      setMenu(undefined);
    },
    /** The argument hint of the command the input holds, while nothing follows it but a space (`/review ` → `[file]`). */
    argHint(text: string): string | undefined {
      const m = /^(\/\S+) $/.exec(text);
      return m ? slashCandidates(m[1], loaded()).find((c) => c.value === m[1])?.argHint : undefined;
    },
  };
}

/** The menu's lines: the chosen item marked ❯ (visible without colour too), a window of 8 around it. */
export function CompletionMenu({ menu, width }: { menu: Menu; width: number }) {
  const first = Math.max(0, Math.min(menu.items.length - SHOWN, menu.sel - Math.floor(SHOWN / 2)));
  const shown = menu.items.slice(first, first + SHOWN);
  const column = Math.min(28, Math.max(...shown.map((c) => c.value.length)));
  return (
    <Box flexDirection="column" paddingLeft={2} width={width}>
      {shown.map((c, k) => {
        const on = first + k === menu.sel;
        return (
          <Text key={c.value} wrap="truncate-end">
            <Text color={on ? 'cyan' : undefined}>
              {on ? '❯ ' : '  '}
              {c.value.padEnd(column)}
            </Text>
            {c.hint && <Text dimColor> {c.hint}</Text>}
          </Text>
        );
      })}
      {menu.items.length > SHOWN && (
        <Text dimColor>
          {' '}
          {menu.sel + 1}/{menu.items.length} · ↑/↓ to choose · Tab to complete
        </Text>
      )}
    </Box>
  );
}
