/**
 * Assignments: what a `NAME=value` word sets (its value when the text shows it) and whether the name steers later
 * commands (`PATH`, `CDPATH`, `GIT_DIR`…, and under zsh the arrays tied to them).
 */
import type { ShellGrammar } from "../quoting/dialect.js";
import type { DirectoryTracker } from "./directory.js";
import { isDangerousVariable, zshTiedScalar } from "./env-vars.js";
import { type FindingList, ShellFindingCode } from "./findings.js";
import { assignmentValue } from "./node-facts.js";
import type { SNode } from "./snode.js";
import type { Assignment } from "./types.js";
import { evaluateWord } from "./words.js";

/**
 * Reads a `variable_assignment` node: the name (without a subscript) and the value, `null` when it expands
 * anything, is an array holding expansions, or takes file names from a glob (`(*)`).
 * @param src - the text the node was parsed from
 */
export function readAssignment(node: SNode, src: string, exported: boolean): Assignment | undefined {
  const nameNode = node.namedChildren[0];
  if (!nameNode) return undefined;
  let name = nameNode.text;
  if (nameNode.type === "subscript") name = nameNode.namedChildren[0]?.text ?? name;
  const valueNode = assignmentValue(node);
  let value: string | null = "";
  if (valueNode) {
    if (valueNode.type === "array") {
      const word = evaluateWord([valueNode], src);
      value = word.dynamic || valueNode.namedChildren.length > 0 ? valueNode.text : "";
      if (/[$`]/.test(valueNode.text)) value = null;
      // `(*)` takes file names as elements
      if (valueNode.namedChildren.some((e) => /^[^[]*[*?[]/.test(e.text))) value = null;
    } else {
      const word = evaluateWord([valueNode], src);
      value = word.dynamic ? null : word.value;
    }
  }
  return { name, value, exported };
}

/** What {@link checkSteering} reports to and updates. */
export interface SteeringState {
  readonly list: FindingList;
  readonly directory: DirectoryTracker;
  /** The grammar of the shell that runs the script. */
  readonly grammar: ShellGrammar;
}

/**
 * A variable the line sets (by any means) that steers later commands: `PATH`, `CDPATH`, `GIT_DIR`… (and under
 * zsh the arrays tied to them, `path=(…)`): `shell.env-poison`, and `cd` stops trusting names it steers.
 * @param assigned - the caller already told the directory tracker about `name` itself
 */
export function checkSteering(state: SteeringState, name: string, text: string, assigned: boolean): void {
  const tied = state.grammar === "zsh" ? zshTiedScalar(name) : undefined;
  if (tied !== undefined) checkSteering(state, tied, text, false);
  if (!assigned) state.directory.assign(name);
  if (isDangerousVariable(name)) {
    state.list.add(
      ShellFindingCode.envPoison,
      `sets ${name}, which changes what later programs run or load`,
      text,
    );
  }
}
