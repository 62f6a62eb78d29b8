/**
 * What only the whole line shows: a secret read and a network send in the same line (deny), decoded bytes run
 * as code (deny), bash's `/dev/tcp` (deny), a link made before a read (ask), and secret-looking variables
 * expanded anywhere in the text (ask).
 */
import { isPosixShell, isShell, readsProgramFromStdin } from "../shell/interpreters.js";
import type { ExtractedCommand, ShellAnalysis } from "../shell/types.js";
import { invocationOf, type Invocation } from "./argv.js";
import { lineFinding } from "./codes.js";
import { classifyEnvironment, environmentExpansions } from "./environment.js";
import { isNetworkClient } from "./network.js";
import { readWords } from "./reads.js";
import { classifySecrets } from "./secrets.js";
import type { Finding, SafetyContext } from "./types.js";

/** A redirection or word that opens bash's network pseudo-files. */
const DEV_NET = /\/dev\/(?:tcp|udp)\//i;
/** The same in raw text, after a redirection operator (for lines the parser could not read). */
const DEV_NET_REDIRECT = /[<>]&?\s*["']?\/dev\/(?:tcp|udp)\//i;

/** Settings that make `*` match names starting with a dot. */
const DOT_GLOBS = /dotglob|globdots|glob_dots|GLOBIGNORE|nullglob.*dot/i;

/** Programs that send data to other machines besides the network clients: DNS lookups, ping, mail. */
const OTHER_SINKS = new Set([
  "dig",
  "nslookup",
  "host",
  "drill",
  "kdig",
  "delv",
  "resolvectl",
  "ping",
  "ping6",
  "traceroute",
  "tracepath",
  "mail",
  "mailx",
  "sendmail",
  "mutt",
  "msmtp",
]);

/** Options whose values are data sent over the network (so a secret there is sent, not used to log in). */
const DATA_OPTIONS =
  /^(-d|--data|--data-binary|--data-raw|--data-ascii|--data-urlencode|--json|-F|--form|--form-string|-T|--upload-file|--post-file|--body-file|--post-data|--body-data)$/;

const INTERPRETERS =
  /^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|perl[0-9.]*|ruby|php[0-9.]*|lua[0-9.]*|luajit|tclsh|wish|osascript|jshell|groovy|scala|Rscript|julia)$/;

/** Whether a command decodes bytes (Base64, hex, compression, escape sequences) to its output. */
function decodes(invocation: Invocation, command: ExtractedCommand): boolean {
  const { name, args } = invocation;
  const flag = (letter: string, long: RegExp): boolean =>
    args.some((a) => long.test(a) || (/^-[A-Za-z]+$/.test(a) && a.includes(letter)));
  switch (name) {
    case "base64":
    case "base32":
    case "basenc":
    case "gbase64":
      return flag("d", /^--decode$/) || args.includes("-D");
    case "xxd":
      return flag("r", /^-revert$/);
    case "openssl":
      return args.some((a) => a === "-d" || a === "-base64" || a === "base64" || a === "-a");
    case "uudecode":
    case "gunzip":
    case "zcat":
    case "gzcat":
    case "bzcat":
    case "xzcat":
    case "unxz":
    case "unzstd":
    case "zstdcat":
    case "lzcat":
    case "unlzma":
      return true;
    case "gzip":
    case "bzip2":
    case "xz":
    case "zstd":
    case "lz4":
    case "brotli":
      return flag("d", /^--(decompress|uncompress)$/);
    case "printf":
    case "echo":
      return (
        /\\(x[0-9a-f]|[0-7]{3}|0[0-7]|u[0-9a-f])/i.test(args.join(" ")) || /\$'[^']*\\/.test(command.text)
      );
    case "rev":
      return true;
    default:
      return false;
  }
}

/** Whether a command runs code it did not get as visible text: from a pipe, a substitution, `eval`. */
function runsHiddenCode(invocation: Invocation, command: ExtractedCommand): boolean {
  const { name } = invocation;
  const hidden = (word: string, i: number): boolean =>
    invocation.dynamic.has(i) && /\$\(|`|<\(|^\$/.test(word);
  if (name === "eval" || name === "source" || name === ".") return invocation.args.some(hidden);
  const shellLike = isShell(name) || isPosixShell(name) || INTERPRETERS.test(name);
  if (!shellLike) return false;
  if (invocation.args.some(hidden)) return true;
  const words = command.effective.map((text, i) => ({
    text,
    dynamic: (command.effectiveDynamic ?? []).includes(i),
  }));
  if (!readsProgramFromStdin(words)) return false;
  return (
    command.context.includes("pipeline") ||
    command.redirects.some((r) => (r.op === "<" || r.op === "<<<") && r.target === null)
  );
}

/** Whether a command makes a link that a later read could go through. */
function makesLink(invocation: Invocation): boolean {
  const { name, args } = invocation;
  if (name === "ln" || name === "link" || name === "bindfs") return true;
  if (name === "cp") return args.some((a) => /^--(symbolic-link|link)$/.test(a) || /^-[A-Za-z]*[sl]/.test(a));
  if (name === "mount") return args.some((a) => /^--(r?bind)$/.test(a) || /^-[A-Za-z]*B/.test(a));
  return false;
}

/** Whether a secret finding about a network client's own word is data it sends (not a login credential). */
function sentAsData(finding: Finding, invocation: Invocation): boolean {
  const subject = finding.subject ?? "";
  if (/^@|=@|=</.test(subject)) return true;
  const at = invocation.args.indexOf(subject);
  if (at < 0) return true; // a redirection or a substitution
  if (subject.startsWith("-")) return false;
  const before = invocation.args[at - 1];
  if (invocation.name === "ssh") return false; // operands after the host run remotely
  return before === undefined || !before.startsWith("-") || DATA_OPTIONS.test(before);
}

const SOURCE_CODES = new Set([
  "secret.read",
  "secret.recursive-read",
  "secret.environment",
  "secret.git-config",
]);

/**
 * Findings only the whole line shows.
 * @param input - the line as given
 * @param analysis - its analysis
 * @param context - where it runs
 */
export function classifyLine(input: string, analysis: ShellAnalysis, context: SafetyContext): Finding[] {
  const out = environmentExpansions(input);
  const invocations = analysis.commands.map((c) => (c.lookupOnly ? undefined : invocationOf(c)));

  if (DOT_GLOBS.test(input))
    out.push(
      lineFinding(
        "secret.unknown-path",
        "the line makes globs match dot files (dotglob, GLOBIGNORE), so `*` can reach `.env` and `.ssh`",
      ),
    );
  const devNet =
    DEV_NET_REDIRECT.test(input) ||
    analysis.commands.some((c) => c.redirects.some((r) => DEV_NET.test(r.target ?? r.text)));
  if (devNet)
    out.push(
      lineFinding("net.dev-tcp", "a redirection opens a network connection through /dev/tcp or /dev/udp"),
    );

  let decoder: string | undefined;
  let hiddenRunner: string | undefined;
  let linkAt = -1;
  let readAfterLink: string | undefined;
  const sinks: number[] = [];
  invocations.forEach((invocation, i) => {
    if (invocation === undefined) return;
    const command = analysis.commands[i]!;
    if (decoder === undefined && decodes(invocation, command)) decoder = invocation.name;
    if (hiddenRunner === undefined && runsHiddenCode(invocation, command)) hiddenRunner = invocation.name;
    if (linkAt >= 0 && readAfterLink === undefined && (readWords(invocation)?.length ?? 0) > 0)
      readAfterLink = invocation.name;
    if (linkAt < 0 && makesLink(invocation)) linkAt = i;
    const network = OTHER_SINKS.has(invocation.name) || isNetworkClient(invocation);
    if (network) sinks.push(i);
  });
  if (decoder !== undefined && hiddenRunner !== undefined)
    out.push(
      lineFinding(
        "inline.decoded",
        `${decoder} decodes bytes that ${hiddenRunner} runs as code`,
        hiddenRunner,
      ),
    );
  if (readAfterLink !== undefined)
    out.push(
      lineFinding(
        "secret.linked-path",
        `the line makes a link and then ${readAfterLink} reads files, possibly through it`,
        readAfterLink,
      ),
    );

  if (sinks.length > 0 || devNet) {
    const source = invocations.findIndex((invocation, i) => {
      const command = analysis.commands[i]!;
      const found = [
        ...classifySecrets(invocation, command, context),
        ...(invocation === undefined ? [] : classifyEnvironment(invocation)),
      ].filter((f) => SOURCE_CODES.has(f.code));
      if (invocation !== undefined && sinks.includes(i))
        return found.some((f) => f.code !== "secret.read" || sentAsData(f, invocation));
      return found.length > 0;
    });
    if (source >= 0)
      out.push(
        lineFinding(
          "secret.exfiltration",
          `${analysis.commands[source]!.text} reads secrets and the same line sends data over the network`,
        ),
      );
  }
  return out;
}
