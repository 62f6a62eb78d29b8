/**
 * What every connection of the server shares: its configuration, the policy source, the audit log, the limit on
 * concurrent commands, and the set of commands running now (so shutdown can kill and wait for them).
 */
import {
  AuditLog,
  Limiter,
  type AuditEntry,
  type PolicySession,
  type SlashiPaths,
  type Workspace,
} from "@slashi/runtime";

/** The server's settings (from the command line and the environment, never from a tool call). */
export interface ServerConfig {
  /** The workspace served. */
  workspace: Workspace;
  /** Slashi's files. */
  paths: SlashiPaths;
  /** The user's home directory. */
  home: string;
  /** The environment commands start from (secrets are scrubbed by the runner). */
  env: NodeJS.ProcessEnv;
  /** The shell scripts are analysed for and run by. */
  shell: string;
  /** Run commands inside the cordon. */
  cordon: boolean;
  /** Timeout when the call gives none. */
  defaultTimeoutMs: number;
  /** Largest timeout a call may ask for. */
  maxTimeoutMs: number;
  /** Output kept per stream (bytes). */
  maxOutputBytes: number;
  /** Longest command line accepted (characters). */
  maxCommandLength: number;
  /** Commands running at once. */
  maxConcurrent: number;
  /** Calls waiting for a slot. */
  maxQueued: number;
  /** How long to wait for the person to answer a form. */
  confirmTimeoutMs: number;
  /** Progress notification interval while a command runs. */
  progressIntervalMs: number;
}

/** Writes one line to stderr (stdout is the protocol). */
export type Logger = (message: string) => void;

/** The shared parts. */
export class Services {
  /** Settings. */
  readonly config: ServerConfig;
  /** The policy session: policy files, re-read when they change. */
  readonly policy: PolicySession;
  /** The audit log. */
  readonly audit: AuditLog;
  /** Concurrent command limit. */
  readonly limiter: Limiter;
  /** Paths commands must never write. */
  readonly protectedPaths: readonly string[];
  /** Logs to stderr. */
  readonly log: Logger;
  readonly #shutdown = new AbortController();
  readonly #running = new Set<Promise<unknown>>();

  /**
   * @param config - settings
   * @param policy - the policy session of the served workspace
   * @param log - stderr logger
   */
  constructor(config: ServerConfig, policy: PolicySession, log: Logger) {
    this.config = config;
    this.log = log;
    this.policy = policy;
    this.audit = new AuditLog({ file: config.paths.audit });
    this.limiter = new Limiter(config.maxConcurrent, config.maxQueued);
    this.protectedPaths = policy.protectedPaths;
  }

  /** Aborts when the server shuts down (client gone, signal): every running command is killed. */
  get shutdownSignal(): AbortSignal {
    return this.#shutdown.signal;
  }

  /** Appends an audit record; a failure is logged to stderr, never thrown. */
  async record(entry: AuditEntry): Promise<void> {
    const result = await this.audit.append(entry);
    if (!result.written) this.log(`warning: ${result.warning}`);
  }

  /** Tracks a running command until it settles. */
  track<T>(run: Promise<T>): Promise<T> {
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run)).catch(() => undefined);
    return run;
  }

  /** Commands running now. */
  get running(): number {
    return this.#running.size;
  }

  /** Kills every running command and waits (at most `graceMs`) until they are gone. */
  async shutdown(graceMs: number): Promise<void> {
    this.#shutdown.abort(new Error("the server is shutting down"));
    const all = Promise.allSettled([...this.#running]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    if (timer) clearTimeout(timer);
  }
}
