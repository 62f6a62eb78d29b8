/** A classifier's or the analyser's verdict about one thing it saw. */
export interface Finding {
  /** Stable code, such as `rm.recursive-root`, `git.force-push`, `shell.parse-error`. */
  code: string;
  /** `deny` cannot be approved in the moment; `ask` can. */
  severity: "deny" | "ask";
  /** Plain-words reason for a person. */
  message: string;
  /** Source text of the command it is about, when it is about one command. */
  command?: string;
}
