/**
 * Where the tree walk reads a script: the grammar of the shell that runs it and, for a payload (`bash -c`, a
 * heredoc fed to a shell, `eval`), the command whose code it is. A payload runs in a shell of its own: it starts
 * in the directory its command runs in (`env -C dir sh -c '…'`) and its `cd`s stay inside it.
 */
import type { ShellGrammar } from "../quoting/dialect.js";
import type { DirectoryTracker } from "./directory.js";
import type { ExtractedCommand } from "./types.js";
import type { VariableChecks } from "./variables.js";

/** The grammar and the payload owner of the script being walked, kept around each nested read. */
export class PayloadScope {
  /** The grammar of the shell that runs the script being walked (payloads name their own shell). */
  grammar: ShellGrammar = "bash";
  /** The command whose payloads are being read: they start where it runs. */
  private owner: ExtractedCommand | undefined;

  constructor(
    private readonly directory: DirectoryTracker,
    private readonly variables: VariableChecks,
  ) {}

  /**
   * Reads a script run by a shell of `grammar` (default: the grammar of the script it is nested in), then
   * returns to the enclosing script's grammar.
   */
  readBy(grammar: ShellGrammar | undefined, read: () => void): void {
    const outer = this.grammar;
    if (grammar !== undefined) this.grammar = grammar;
    this.variables.readBy(this.grammar);
    try {
      read();
    } finally {
      this.grammar = outer;
    }
  }

  /**
   * Walks a script at `depth` (0: the top level). A payload (depth > 0) starts where its owner runs, and its
   * directory changes end with it.
   */
  ownShell(depth: number, walk: () => void): void {
    const saved = depth > 0 ? this.directory.save() : undefined;
    if (saved !== undefined && this.owner !== undefined) this.directory.enterRunner(this.owner);
    try {
      walk();
    } finally {
      if (saved !== undefined) this.directory.restore(saved);
    }
  }

  /**
   * Reads what `cmd` runs as code with `cmd` as the owner of its payloads. A command inside a payload owns its
   * own payloads and ends the ownership when done: a later payload of `cmd` then starts in the current directory.
   */
  payloadsOf(cmd: ExtractedCommand, read: () => void): void {
    this.owner = cmd;
    read();
    this.owner = undefined;
  }
}
