import type { Node } from 'web-tree-sitter';

/**
 * Shapes of a script that change how often or in what order its commands run, read from the
 * syntax tree (never from the raw text, where `echo "for review"` or a comment would count).
 */

/** Loops (`for`, `select`, `while`, `until`, `for ((…))`) and function definitions (run when called, maybe often). */
const REPEATING = ['for_statement', 'c_style_for_statement', 'while_statement', 'function_definition'];

/** Does the tree hold a loop or a function definition? */
export function hasLoopOrFunction(root: Node): boolean {
  return root.descendantsOfType(REPEATING).length > 0;
}
