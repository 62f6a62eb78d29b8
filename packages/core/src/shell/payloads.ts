/**
 * Payload recursion: text a command hands to a shell as code (`bash -c`, `eval`, `alias`, a heredoc or pipe fed
 * to a shell, backticks in a heredoc body) is analysed as a script of its own, one level deeper; a program that
 * reads its code from standard input is flagged, and denied when the code comes from a download.
 */
import { grammarForShell, type ShellGrammar } from "../quoting/dialect.js";
import type { SafetyCode } from "../safety/codes.js";
import { joinContext } from "./context.js";
import { analyzeDialect } from "./dialects.js";
import { type FindingList, ShellFindingCode } from "./findings.js";
import {
  findShellPayload,
  isDownloader,
  isPosixShell,
  isShell,
  readsProgramFromStdin,
} from "./interpreters.js";
import { basename, type Word } from "./options.js";
import type { RedirectInfo } from "./redirects.js";
import type { CommandContext, ExtractedCommand, ShellLanguage } from "./types.js";

/** The analysis a payload is added to. */
export interface PayloadHost {
  readonly commands: ExtractedCommand[];
  readonly list: FindingList;
  /** Aliases defined so far; `alias` adds to it. */
  readonly aliases: Set<string>;
  /** Parses and walks a payload at `depth`, read by a shell of `grammar` (default: the enclosing script's). */
  script(src: string, context: readonly CommandContext[], depth: number, grammar?: ShellGrammar): void;
}

/** What the walk knows about where a command's input comes from. */
export interface InputFacts {
  /** A download runs in a `$(…)`, `<(…)` or assignment value of the command. */
  nestedDownload: boolean;
  /** A download runs in a redirect target or heredoc body of the command. */
  redirectDownload: boolean;
  /** The redirects that may feed the command's standard input. */
  stdinRedirects: readonly RedirectInfo[];
}

const BACKTICK = "`";

/**
 * Flags each pipeline element that runs its standard input as a program, and analyses the text when the
 * producer shows all of it (`echo ls | sh`).
 * @param ranges - for each element, the range of `host.commands` it added
 */
export function checkPipeToShell(
  host: PayloadHost,
  heads: readonly (ExtractedCommand | undefined)[],
  ranges: readonly [number, number][],
  depth: number,
): void {
  for (let k = 1; k < heads.length; k++) {
    const head = heads[k];
    if (!head || !readsProgramFromStdin(words(head.effective, head))) continue;
    let download = false;
    for (let p = 0; p < k; p++) {
      const [from, to] = ranges[p] as [number, number];
      if (anyDownloader(host.commands, from, to)) download = true;
    }
    flagStdinProgram(host.list, head, download, "a pipe");
    const program = head.effective[0];
    const producer = heads[k - 1];
    if (program !== undefined && isPosixShell(program) && producer) {
      const text = producedText(producer);
      if (text !== undefined) {
        host.script(text, joinContext(head.context, "shell-c"), depth + 1, grammarOf(program));
      }
    }
  }
}

/** True when a command in `commands[from..to)` is a literal downloader (`curl`, `wget`…). */
export function anyDownloader(commands: readonly ExtractedCommand[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const cmd = commands[i] as ExtractedCommand;
    const program = cmd.effective[0];
    if (program !== undefined && cmd.staticProgram && isDownloader(program)) return true;
  }
  return false;
}

function flagStdinProgram(list: FindingList, cmd: ExtractedCommand, download: boolean, via: string): void {
  const program = cmd.effective[0] ?? "";
  if (download) {
    list.add(
      ShellFindingCode.downloadToShell,
      `a download is run as a program: ${basename(program)} reads code from the network through ${via}`,
      cmd.text,
    );
  } else {
    list.add(
      ShellFindingCode.pipeToShell,
      `${basename(program)} runs the code it is given through ${via}, which the policy cannot see`,
      cmd.text,
    );
  }
}

/**
 * The meaning of a command's effective program for the analysis: shells given `-c` or stdin, `eval`,
 * `source`, `alias`, interpreters fed a download.
 */
export function programSemantics(
  host: PayloadHost,
  cmd: ExtractedCommand,
  effective: readonly Word[],
  depth: number,
  context: readonly CommandContext[],
  facts: InputFacts,
): void {
  const head = effective[0];
  if (!head || head.dynamic || cmd.lookupOnly) return;
  const list = host.list;
  const program = basename(head.text);
  const text = cmd.text;
  const interpreterLike = isShell(program) || program === "eval" || program === "source" || program === ".";
  if (
    facts.nestedDownload &&
    (interpreterLike || readsProgramFromStdin(effective) || isInterpreter(program))
  ) {
    list.add(
      ShellFindingCode.downloadToShell,
      `a download is run as a program: ${program} runs code fetched from the network`,
      text,
    );
  }
  if (program === "eval") {
    list.add(ShellFindingCode.eval, "eval runs text as a new command line", text);
    const rest = effective.slice(1);
    if (rest.some((w) => w.dynamic)) {
      list.add(ShellFindingCode.unparsedPayload, "eval is given text computed when the script runs", text);
    } else if (rest.length) {
      host.script(rest.map((w) => w.text).join(" "), joinContext(context, "shell-c"), depth + 1);
    }
    return;
  }
  if (program === "source" || program === ".") {
    list.add(ShellFindingCode.source, `${program} runs a file's commands in this shell`, text);
  }
  if (program === "alias") {
    for (let k = 1; k < effective.length; k++) {
      const w = effective[k] as Word;
      const eq = w.text.indexOf("=");
      if (eq <= 0) continue;
      host.aliases.add(w.text.slice(0, eq));
      list.add(
        ShellFindingCode.aliasDefined,
        `defines the alias ${w.text.slice(0, eq)}, which changes what a later command runs`,
        text,
      );
      if (w.dynamic) {
        list.add(
          ShellFindingCode.unparsedPayload,
          "an alias is given text computed when the script runs",
          text,
        );
      } else {
        host.script(w.text.slice(eq + 1), joinContext(context, "shell-c"), depth + 1);
      }
    }
    return;
  }
  if (isShell(program) && shellPayload(host, program, cmd, effective, depth, context)) return;
  if (readsProgramFromStdin(effective)) stdinPayloads(host, program, cmd, depth, context, facts);
}

/** A shell given `-c` (or `-Command`…): analyses the payload. False when the shell has no payload option. */
function shellPayload(
  host: PayloadHost,
  program: string,
  cmd: ExtractedCommand,
  effective: readonly Word[],
  depth: number,
  context: readonly CommandContext[],
): boolean {
  const payload = findShellPayload(effective);
  if (!payload) return false;
  const list = host.list;
  const text = cmd.text;
  if (payload.encoded) {
    list.add(ShellFindingCode.unparsedPayload, `${program} is given an encoded command`, text);
  } else if (payload.missing && cmd.appendsArguments) {
    list.add(
      ShellFindingCode.unparsedPayload,
      `${program} -c receives its command from xargs when the script runs`,
      text,
    );
  } else if (payload.payload.dynamic) {
    list.add(
      ShellFindingCode.unparsedPayload,
      `${program} -c is given a command computed when the script runs`,
      text,
    );
  } else if (payload.language === "bash") {
    host.script(payload.payload.text, joinContext(context, "shell-c"), depth + 1, grammarOf(program));
  } else {
    mergeDialect(host, payload.payload.text, payload.language, joinContext(context, "shell-c"));
  }
  return true;
}

/** A program that reads its code from standard input, fed by a redirect, heredoc or here-string. */
function stdinPayloads(
  host: PayloadHost,
  program: string,
  cmd: ExtractedCommand,
  depth: number,
  context: readonly CommandContext[],
  facts: InputFacts,
): void {
  for (const info of facts.stdinRedirects) {
    const r = info.redirect;
    const fd = r.fd ?? 0;
    if (fd !== 0 || !STDIN_OPERATORS.has(r.op)) continue;
    const via = r.op === "<<<" ? "a here-string" : r.op.startsWith("<<") ? "a heredoc" : "a redirect";
    flagStdinProgram(host.list, cmd, facts.redirectDownload, via);
    if (!isPosixShell(program) || !(r.op === "<<<" || r.op.startsWith("<<"))) continue;
    if (r.target === null) {
      host.list.add(
        ShellFindingCode.unparsedPayload,
        `${program} is fed text computed when the script runs`,
        cmd.text,
      );
      if (info.body) {
        host.script(
          info.body.text,
          joinContext(joinContext(context, "heredoc"), "shell-c"),
          depth + 1,
          grammarOf(program),
        );
      }
    } else {
      const payloadContext = r.op === "<<<" ? context : joinContext(context, "heredoc");
      host.script(r.target, joinContext(payloadContext, "shell-c"), depth + 1, grammarOf(program));
    }
  }
}

const STDIN_OPERATORS: ReadonlySet<string> = new Set(["<", "<<", "<<-", "<<<", "<&", "<>"]);

/** Analyses a payload in another dialect (fish, PowerShell, cmd) and merges it. */
function mergeDialect(
  host: PayloadHost,
  src: string,
  language: ShellLanguage,
  context: readonly CommandContext[],
): void {
  const result = analyzeDialect(src, language);
  for (const c of result.commands) {
    c.context = [...context, ...c.context];
    host.commands.push(c);
  }
  for (const f of result.findings) host.list.add(f.code as SafetyCode, f.message, f.command);
  if (result.incomplete) host.list.incomplete = true;
}

/** Finds backtick substitutions in heredoc text tree-sitter leaves unparsed, and analyses them. */
export function backticksIn(
  host: PayloadHost,
  text: string,
  depth: number,
  context: readonly CommandContext[],
): void {
  if (!text.includes(BACKTICK)) return;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c !== BACKTICK) {
      i++;
      continue;
    }
    let j = i + 1;
    let inner = "";
    while (j < text.length && text[j] !== BACKTICK) {
      if (text[j] === "\\" && j + 1 < text.length) {
        const n = text[j + 1] as string;
        inner += n === "$" || n === BACKTICK || n === "\\" ? n : `\\${n}`;
        j += 2;
        continue;
      }
      inner += text[j];
      j++;
    }
    if (j >= text.length) {
      host.list.add(
        ShellFindingCode.parseError,
        "an unterminated backtick in a heredoc body",
        undefined,
        true,
      );
      return;
    }
    host.script(inner, joinContext(context, "backtick"), depth + 1);
    i = j + 1;
  }
}

/**
 * The text a simple producer writes, when the script shows all of it: `echo words`, `printf 'text'`, or `cat`
 * fed a static heredoc or here-string. Used to read what a pipe hands to a shell.
 */
function producedText(cmd: ExtractedCommand): string | undefined {
  const argv = cmd.effective;
  const program = argv[0];
  if (program === undefined || (cmd.effectiveDynamic?.length ?? 0) > 0 || cmd.appendsArguments)
    return undefined;
  if (program === "echo") {
    let i = 1;
    while (i < argv.length && /^-[neE]+$/.test(argv[i] as string)) i++;
    if (argv.slice(1, i).some((o) => o.includes("e"))) return undefined;
    return argv.slice(i).join(" ");
  }
  if (program === "printf" && argv.length === 2) {
    const format = argv[1] as string;
    return /[%\\]/.test(format) ? undefined : format;
  }
  if (program === "cat" && argv.length === 1) {
    for (const r of cmd.redirects) {
      if ((r.op === "<<" || r.op === "<<-" || r.op === "<<<") && (r.fd ?? 0) === 0 && r.target !== null) {
        return r.target;
      }
    }
  }
  return undefined;
}

/** The grammar of a shell program a payload is handed to; POSIX (the strictest) when it is not bash or zsh. */
function grammarOf(program: string): ShellGrammar {
  return grammarForShell(program) ?? "posix";
}

function isInterpreter(program: string): boolean {
  return /^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|perl|ruby|php|lua|osascript|Rscript|tclsh|wish)$/.test(
    program,
  );
}

function words(texts: readonly string[], cmd: ExtractedCommand): Word[] {
  const dyn = new Set(cmd.effectiveDynamic ?? []);
  return texts.map((text, k) => ({ text, dynamic: dyn.has(k) }));
}
