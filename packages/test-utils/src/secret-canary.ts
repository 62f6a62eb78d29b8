// The secret canary every host's test runs: one slash command of the person's own whose steps read a value from
// `${env:…}` into an argument, into the step's directory and into the program of a step that cannot start. Each
// host runs it and shows that the value is nowhere in what it writes (audit log, screen, results, errors,
// notifications, its log), only in what actually ran.
import { mkdirSync } from "node:fs";
import path from "node:path";

/** The environment variable the canary command reads. */
const CANARY_VARIABLE = "CANARY_TOKEN";

/** How a placeholder of the canary variable reads where the value went. */
const CANARY_PLACEHOLDER = `⟪env:${CANARY_VARIABLE}⟫`;

/**
 * Canary values: a long one with a space and a quote (unquoted it splits into words, quoted it changes shape, so
 * a search for the value in the expanded line would miss it), and a two-character one that no search for the value
 * can find safely in free text (only its position hides it).
 */
const CANARY_VALUES = { long: "cnry-7e31c0 it's", short: "§¤" } as const;

/** What must not occur anywhere for each value: the long value's distinctive first word, the short value whole. */
const CANARY_MARKS = { long: "cnry-7e31c0", short: "§¤" } as const;

/** The steps of {@link CANARY_COMMAND}, by what they do with the value. */
const CANARY_STEPS = {
  /** The value as an argument (quoted): runs. */
  argument: { type: "terminal", command: `true --token \${q:env:${CANARY_VARIABLE}}` },
  /** The value as the step's directory (made by {@link canaryWorkspace}): runs there. */
  directory: { type: "terminal", command: "true", cwd: `\${env:${CANARY_VARIABLE}}` },
  /** The value names the program, which does not exist: asks (an unknown program), then fails to start. */
  failing: { type: "terminal", command: `\${q:env:${CANARY_VARIABLE}} --version` },
} as const;

/**
 * The canary's `open` step: the value inside a URL (after `#`, where no search for a short value finds it as a word
 * of its own). A host that opens targets shows the URL with the value's placeholder; one that cannot open (MCP)
 * refuses the whole command before anything runs, so it is a command of its own ({@link CANARY_OPEN_COMMAND}).
 */
const CANARY_OPEN_STEP = {
  type: "open",
  target: `https://example.com/#\${env:${CANARY_VARIABLE}}`,
} as const;

/** A command of the person's own that opens {@link CANARY_OPEN_STEP}. */
const CANARY_OPEN_COMMAND = {
  name: "canary-open",
  description: "opens a URL that holds a secret",
  steps: [CANARY_OPEN_STEP],
};

/** The canary command as an entry of the person's `commands.json` (or the extension's user setting). */
const CANARY_COMMAND = {
  name: "canary",
  description: "reads a secret into an argument, a directory and a program that cannot start",
  steps: [CANARY_STEPS.argument, CANARY_STEPS.directory, CANARY_STEPS.failing],
};

/** The person's policy for the canary: the recommended preset, and `true` allowed wherever it runs. */
const CANARY_POLICY = {
  version: 1,
  extends: ["recommended"],
  rules: [{ match: ["true"], decision: "allow" }],
};

/** Makes the directory the canary's second step runs in (the value, below `workspace`); returns its path. */
function canaryWorkspace(workspace: string, value: string): string {
  const dir = path.join(workspace, value);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The names of the places (keys of `places`; a value that is not a string is taken as its JSON) where `mark`
 * occurs: empty when the canary reached none of them.
 */
function canaryFound(places: Record<string, unknown>, mark: string): string[] {
  return Object.entries(places)
    .filter(([, text]) => (typeof text === "string" ? text : (JSON.stringify(text) ?? "")).includes(mark))
    .map(([where]) => where);
}

/** A kind of canary value: a key of {@link CANARY_VALUES}. */
export type CanaryKind = keyof typeof CANARY_VALUES;

/**
 * The secret canary every host's test runs, as one object: `variable` (the environment variable the command
 * reads) and its `placeholder`; `values` and `marks` (what must not show) by `kinds` (`long`, `short`); the
 * `steps`, the `command` holding them and the person's `policy`; `openStep` and the `openCommand` holding it, for
 * hosts that open targets; `workspace(dir, value)` makes the step's
 * directory; `found(places, mark)` names the places the mark reached.
 */
export const CANARY = {
  variable: CANARY_VARIABLE,
  placeholder: CANARY_PLACEHOLDER,
  values: CANARY_VALUES,
  marks: CANARY_MARKS,
  kinds: Object.keys(CANARY_VALUES) as CanaryKind[],
  steps: CANARY_STEPS,
  command: CANARY_COMMAND,
  openStep: CANARY_OPEN_STEP,
  openCommand: CANARY_OPEN_COMMAND,
  policy: CANARY_POLICY,
  workspace: canaryWorkspace,
  found: canaryFound,
} as const;
