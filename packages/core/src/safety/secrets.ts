import type { Invocation } from "./argv.js";
import { finding } from "./codes.js";
import { literalPrefix, resolvePath } from "./paths.js";
import { isSecretFolder, isSecretPath, isSecretPathOrFolder } from "./sensitive.js";
import type { ExtractedCommand } from "../shell/types.js";
import type { Finding, SafetyContext } from "./types.js";

const READ_OPS = new Set(["<", "<>", "<&"]);

/** Programs that look at a folder without reading the files in it. */
const METADATA_ONLY = new Set([
  "ls",
  "dir",
  "stat",
  "du",
  "df",
  "file",
  "test",
  "[",
  "cd",
  "pushd",
  "mkdir",
  "chmod",
  "chown",
  "realpath",
  "readlink",
  "dirname",
  "basename",
  "exa",
  "eza",
  "lsd",
  "tree",
]);

/** Words of an argument that may name a file: the word, and the part after `=` (`--file=x`, `if=x`). */
function pathCandidates(word: string): string[] {
  const out = [word];
  const eq = word.indexOf("=");
  if (eq > 0 && eq < word.length - 1) out.push(word.slice(eq + 1));
  if (/^-[A-Za-z]\//.test(word) || /^-[A-Za-z]~\//.test(word)) out.push(word.slice(2));
  const at = word.indexOf("@");
  if (at === 0 && word.length > 1) out.push(word.slice(1));
  return out;
}

/** Reads of secret files: any static argument or input redirection naming one. */
export function classifySecrets(
  invocation: Invocation | undefined,
  command: ExtractedCommand,
  context: SafetyContext,
): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const check = (word: string, via: string): void => {
    for (const candidate of pathCandidates(word)) {
      if (candidate === "" || seen.has(candidate)) continue;
      const path = resolvePath(candidate, context);
      if (path !== null && isSecretPathOrFolder(path, context)) {
        seen.add(candidate);
        out.push(
          finding(
            "secret.read",
            `${via} names ${candidate}, a file that usually holds secrets`,
            command,
            candidate,
          ),
        );
        return;
      }
    }
  };
  /** A dynamic word: `$HOME/.aws/credentials` resolves; a glob is tested by its folder and its name pattern. */
  const checkDynamic = (word: string, via: string): void => {
    const { prefix, stop } = literalPrefix(word, context);
    if (stop === null) return check(prefix, via);
    if (stop !== "glob") return;
    const slash = prefix.lastIndexOf("/");
    const folder = resolvePath(slash < 0 ? "." : prefix.slice(0, slash + 1) || "/", context);
    const publicOnly = /\.pub['"]?$/.test(word);
    const inSecretFolder = folder !== null && !publicOnly && isSecretFolder(folder, context);
    const asName = (fill: string): string | null =>
      resolvePath(word.replace(/['"]/g, "").replace(/\*|\?|\[[^\]]*\]/g, fill), context);
    const named = ["", "x", "rsa"].some((fill) => {
      const path = asName(fill);
      return path !== null && !publicOnly && isSecretPath(path, context);
    });
    if (inSecretFolder || named) {
      seen.add(word);
      out.push(
        finding(
          "secret.read",
          `${via} names ${word}, which can match files that usually hold secrets`,
          command,
          word,
        ),
      );
    }
  };
  if (invocation !== undefined && !METADATA_ONLY.has(invocation.name)) {
    invocation.args.forEach((word, i) => {
      if (!invocation.dynamic.has(i)) check(word, invocation.name);
      else checkDynamic(word, invocation.name);
    });
  }
  for (const r of command.redirects) {
    if (READ_OPS.has(r.op) && r.target !== null && !/^(\d+|-)$/.test(r.target))
      check(r.target, `input redirection ${r.op}`);
  }
  return out;
}
