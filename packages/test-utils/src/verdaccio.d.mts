/** A verdaccio started by {@link startRegistry}. */
export interface RunningRegistry {
  /** Base URL, ending in `/`. */
  url: string;
  /** Process id (also its process group). */
  pid: number;
  /** Its folder (config, storage, log, certificate). */
  dir: string;
  /** The self-signed certificate for HTTPS, which is also its CA. */
  caFile?: string;
  /** Token of user `ci`. */
  token: string;
}
/** The verdaccio that `e2e/registry/install.sh` installs. */
export const verdaccioBin: string;
/** Why no local registry can be started here, or `undefined`; throws instead when `CI` is set. */
export function verdaccioUnavailable(): string | undefined;
/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number>;
/** Starts verdaccio in `dir` and waits for it; creates user `ci`. */
export function startRegistry(options: { bin: string; dir: string; tls: boolean }): Promise<RunningRegistry>;
/** Stops a registry's process group. */
export function stopRegistry(registry: RunningRegistry): Promise<void>;
