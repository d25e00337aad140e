import { useEffect, useSyncExternalStore } from 'react';
import { Box, Static, Text, useApp, useWindowSize } from 'ink';
import type { Controller } from './controller.ts';
import { Footer } from './components/footer.tsx';
import { HistoryView } from './components/history-view.tsx';
import { LiveView } from './components/live-view.tsx';
import { TodoView } from './components/todo-view.tsx';
import { PermissionDialog } from './components/permission-dialog.tsx';
import { PromptInput } from './components/prompt-input.tsx';
import { SelectDialog } from './components/select-dialog.tsx';
import { useTerminalTitle } from './terminal-title.ts';
import { testCrash } from './test-crash.ts';

/**
 * The session screen: finished history printed once (<Static>), then the live region, then either
 * the question waiting for an answer or the input box, then the mode and status line.
 * Renders the controller's state; every action goes back to the controller.
 */
export function App({ ctrl }: { ctrl: Controller }) {
  const state = useSyncExternalStore(ctrl.store.subscribe, ctrl.store.get);
  testCrash(state.history);
  const { columns, rows } = useWindowSize();
  const ui = ctrl.setup.settings?.merged.ui;
  useTerminalTitle(state, { title: ui?.terminalTitle !== false, bell: ui?.bell === true });
  const app = useApp();
  useEffect(() => {
    ctrl.onExit = () => app.exit();
    ctrl.suspend = (fn) => app.suspendTerminal(fn);
  }, [ctrl, app]);
  const width = Math.max(20, columns);
  const inner = Math.max(20, width - 1);
  const q = state.question;
  const busy = !!state.live.busy;
  return (
    <Box flexDirection="column">
      <Static key={state.epoch} items={state.history}>
        {(item) => (
          <Box key={item.id} flexDirection="column" width={inner}>
            <HistoryView item={item} width={inner} cwd={state.cwd} detail={state.detail} />
          </Box>
        )}
      </Static>
      {/* While a question waits, the spinner stops: nothing is working. */}
      <LiveView
        live={q ? { ...state.live, busy: undefined } : state.live}
        width={inner}
        height={rows}
        cwd={state.cwd}
        detail={state.detail}
      />
      <TodoView todos={state.todos} width={inner} />
      <Box marginTop={1} flexDirection="column">
        {q?.kind === 'permission' && (
          <PermissionDialog
            key={q.id}
            req={q.req}
            always={q.always}
            preview={q.preview}
            onAnswer={q.answer}
            cwd={state.cwd}
            width={inner}
            height={rows}
          />
        )}
        {q?.kind === 'select' && (
          <SelectDialog
            key={q.id}
            title={q.title}
            body={q.body}
            options={q.options}
            initial={q.initial}
            markdown={q.markdown}
            onAnswer={q.answer}
            width={inner}
          />
        )}
        <PromptInput ctrl={ctrl} busy={busy} width={inner} active={!q && !ctrl.exited} draft={state.draft} />
      </Box>
      {state.detail && <Text dimColor> Showing every call's output unfolded · ctrl+o to fold</Text>}
      <Footer mode={state.mode} model={state.model} context={state.context} costUsd={state.costUsd} hint={state.hint} width={inner} />
    </Box>
  );
}
