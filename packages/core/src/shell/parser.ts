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
   * Default: the copy the published package ships (`@slashi/core/tree-sitter-bash.wasm`, next to the compiled
   * modules); in a source checkout, `import.meta.resolve("tree-sitter-bash/tree-sitter-bash.wasm")`.
   */
  bashWasm?: string | Uint8Array;
}

let loading: Promise<void> | undefined;
let bashParser: Parser | undefined;

/** Turns a `file:` URL string into a URL object (web-tree-sitter reads URL objects and paths alike). */
function asLoadable(location: string): string | URL {
  return location.startsWith("file:") ? new URL(location) : location;
}

/**
 * Where the grammar may be, in order: the copy the build puts in `dist/` (the published package carries it, so
 * installing @slashi/core needs no grammar package), then the tree-sitter-bash package (a source checkout).
 */
function defaultBashWasm(): (string | URL)[] {
  const meta = import.meta as { url?: unknown; resolve?: (specifier: string) => string };
  const candidates: (string | URL)[] = [];
  if (typeof meta.url === "string" && meta.url.startsWith("file:")) {
    candidates.push(new URL("../tree-sitter-bash.wasm", meta.url));
  }
  if (typeof meta.resolve === "function") {
    try {
      candidates.push(asLoadable(meta.resolve("tree-sitter-bash/tree-sitter-bash.wasm")));
    } catch {
      // not installed: only the shipped copy can serve
    }
  }
  if (candidates.length === 0) {
    throw new SlashiError(
      SlashiErrorCode.PARSER_UNAVAILABLE,
      "cannot locate tree-sitter-bash.wasm from this host; pass bashWasm to loadShellParser",
    );
  }
  return candidates;
}

/** Loads the grammar from the first candidate that loads; the last failure is the one reported. */
async function loadGrammar(candidates: (string | URL | Uint8Array)[]): Promise<Language> {
  let failure: unknown;
  for (const candidate of candidates) {
    try {
      return await Language.load(candidate);
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
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
    const grammar = options.bashWasm;
    const language = await loadGrammar(
      grammar === undefined
        ? defaultBashWasm()
        : [grammar instanceof Uint8Array ? grammar : asLoadable(grammar)],
    );
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
