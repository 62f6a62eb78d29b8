import { Language, Parser } from "web-tree-sitter";
import { SlashiError, SlashiErrorCode } from "../errors.js";

/** Where to find the two wasm files the bash parser needs. */
export interface ShellParserOptions {
  /**
   * web-tree-sitter's runtime wasm (`web-tree-sitter.wasm`): a path, a `file:` URL string, or the bytes.
   * Default: the copy next to web-tree-sitter's own module, found by web-tree-sitter itself.
   */
  treeSitterWasm?: string | Uint8Array;
  /**
   * The tree-sitter-bash grammar (`tree-sitter-bash.wasm`): a path, a `file:` URL string, or the bytes.
   * Default: `import.meta.resolve("tree-sitter-bash/tree-sitter-bash.wasm")`.
   */
  bashWasm?: string | Uint8Array;
}

let loading: Promise<void> | undefined;
let bashParser: Parser | undefined;

/** Turns a `file:` URL string into a URL object (web-tree-sitter reads URL objects and paths alike). */
function asLoadable(location: string): string | URL {
  return location.startsWith("file:") ? new URL(location) : location;
}

function defaultBashWasm(): string {
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  if (typeof resolve !== "function") {
    throw new SlashiError(
      SlashiErrorCode.PARSER_UNAVAILABLE,
      "cannot locate tree-sitter-bash.wasm: this host has no import.meta.resolve; pass bashWasm to loadShellParser",
    );
  }
  return resolve("tree-sitter-bash/tree-sitter-bash.wasm");
}

async function load(options: ShellParserOptions): Promise<void> {
  const runtime = options.treeSitterWasm;
  try {
    if (runtime instanceof Uint8Array) {
      await Parser.init({ wasmBinary: runtime });
    } else if (typeof runtime === "string") {
      const located = runtime.startsWith("file:") ? new URL(runtime).href : runtime;
      await Parser.init({ locateFile: () => located });
    } else {
      await Parser.init();
    }
    const grammar = options.bashWasm ?? defaultBashWasm();
    const language = await Language.load(grammar instanceof Uint8Array ? grammar : asLoadable(grammar));
    const parser = new Parser();
    parser.setLanguage(language);
    bashParser = parser;
  } catch (cause) {
    if (cause instanceof SlashiError) throw cause;
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new SlashiError(
      SlashiErrorCode.PARSER_UNAVAILABLE,
      `cannot load the bash parser: ${detail}`,
      {},
      { cause },
    );
  }
}

/**
 * Loads web-tree-sitter and the tree-sitter-bash grammar once. Idempotent: later and concurrent calls share
 * the first call's promise, and their options are ignored. A failed load may be retried.
 * @param options - explicit wasm locations or bytes; bundled hosts pass the files they ship
 * @throws SlashiError `PARSER_UNAVAILABLE` when a wasm file cannot be found or loaded
 */
export function loadShellParser(options: ShellParserOptions = {}): Promise<void> {
  if (!loading) {
    loading = load(options).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  }
  return loading;
}

/** True once {@link loadShellParser} has finished and bash can be analysed synchronously. */
export function isShellParserLoaded(): boolean {
  return bashParser !== undefined;
}

/**
 * The loaded bash parser (internal to the shell folder).
 * @throws SlashiError `PARSER_UNAVAILABLE` when {@link loadShellParser} has not finished
 */
export function bashParserOrThrow(): Parser {
  if (!bashParser) {
    throw new SlashiError(
      SlashiErrorCode.PARSER_UNAVAILABLE,
      "the bash parser is not loaded: await loadShellParser() before analysing bash",
    );
  }
  return bashParser;
}
