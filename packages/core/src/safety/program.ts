import type { Invocation } from "./argv.js";
import { finding } from "./codes.js";
import { isAbsolute, isInside, resolvePath } from "./paths.js";
import type { ExtractedCommand } from "../shell/types.js";
import type { Finding, SafetyContext } from "./types.js";

/** Folders that hold system or package-manager programs; a program there is not a look-alike. */
const SYSTEM_PROGRAM_DIRS = [
  "/usr",
  "/bin",
  "/sbin",
  "/opt/homebrew",
  "/opt/local",
  "/nix/store",
  "/run/current-system",
  "/snap/bin",
  "/system",
  "/library/apple",
  "c:/windows",
  "c:/program files",
  "c:/program files (x86)",
];

const PRIVILEGE = new Set(["sudo", "doas", "su", "pkexec", "run0", "gsudo", "sudo-rs", "please"]);

/** Program identity: path-qualified look-alikes, non-ASCII names, computed names, raised privileges. */
export function classifyProgram(
  invocation: Invocation | undefined,
  command: ExtractedCommand,
  context: SafetyContext,
): Finding[] {
  const out: Finding[] = [];
  if (!command.staticProgram) {
    out.push(
      finding(
        "program.dynamic",
        `the program ${command.effective[0] ?? command.argv[0] ?? ""} is computed at run time`,
        command,
        command.effective[0],
      ),
    );
  }
  if (invocation === undefined) return out;
  const word = invocation.programWord;
  if (/[^\x21-\x7e]/.test(word)) {
    out.push(
      finding(
        "program.non-ascii",
        `the program name ${JSON.stringify(word)} has non-ASCII or invisible characters`,
        command,
        word,
      ),
    );
  }
  const hasSeparator = word.includes("/") || (context.platform === "windows" && word.includes("\\"));
  if (command.staticProgram && hasSeparator) {
    const path = resolvePath(word, context);
    const system =
      path !== null &&
      isAbsolute(word, context) &&
      SYSTEM_PROGRAM_DIRS.some((dir) =>
        isInside(path.toLowerCase(), dir, { ...context, platform: "windows" }),
      );
    if (!system) {
      out.push(
        finding(
          "program.path-qualified",
          `${word} is run by path, not from the system folders; a rule for ${invocation.name} does not cover it`,
          command,
          word,
        ),
      );
    }
  }
  const privileged =
    command.wrappers.find((w) => PRIVILEGE.has(w.toLowerCase())) ??
    (PRIVILEGE.has(invocation.name) ? invocation.name : undefined);
  if (privileged !== undefined)
    out.push(
      finding(
        "program.privileged",
        `the command runs with raised privileges through ${privileged}`,
        command,
        privileged,
      ),
    );
  return out;
}
