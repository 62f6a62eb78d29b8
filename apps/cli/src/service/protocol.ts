/**
 * The decision service's wire format and identity: one JSON line each way per connection. A client and a
 * service talk only when both are the same build of slashi on the same Node (checked on both sides), so an
 * answer from the service is the answer the same binary would have given in-process.
 */
import path from "node:path";
// The paths module alone: the client must not load the rest of the runtime.
import { userStateDir } from "@slashi/runtime/paths";

/**
 * Protocol version; bumped when a field changes meaning. Version 2: after the answer line the client sends
 * {@link ACK} when it takes the answer, and only then does the service write the request's audit records and
 * close the connection (a client that gave up answers in-process and the service's records are dropped).
 */
export const PROTOCOL = 2;

/** The line a client sends when it takes the service's answer as its own. */
export const ACK = "taken";

/** The hidden first argument that makes `bin.js` run as the service (never a command name). */
export const SERVICE_ARG = "--slashi-decision-service";

/** Longest request or answer line accepted (bytes); more means something is wrong: answer in-process. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** Longest stdin a client forwards; a longer input is answered in-process with the same bytes. */
export const MAX_STDIN_BYTES = 1024 * 1024;

/** The build identity (replaced by the build with a digest of the bundle; `dev` when run from source). */
export const BUILD_ID: string = typeof __SLASHI_BUILD_ID__ === "string" ? __SLASHI_BUILD_ID__ : "dev";
declare const __SLASHI_BUILD_ID__: string | undefined;

/** Who is talking: the same build on the same Node, or nobody. */
export interface Identity {
  /** Protocol version. */
  protocol: number;
  /** {@link BUILD_ID} of the sender. */
  build: string;
  /** `process.version` of the sender. */
  node: string;
  /** `process.execPath` of the sender. */
  execPath: string;
}

/** One command run through the service. */
export interface ServiceRequest extends Identity {
  /** The words after the program name. */
  argv: string[];
  /** The client's working directory. */
  cwd: string;
  /** The client's environment. */
  env: Record<string, string>;
  /** The client's stdin, base64 (empty for commands that do not read it). */
  stdin: string;
  /** Whether a person could be asked at the client's terminal. */
  interactive: boolean;
  /** Whether the client's output may use colour. */
  color: boolean;
}

/** The service's answer: what the command wrote and its exit status, or a refusal (answer in-process). */
export type ServiceAnswer = Identity &
  ({ status: number; stdout: string; stderr: string } | { refused: string; status?: undefined });

/** This process's identity. */
export function identity(): Identity {
  return { protocol: PROTOCOL, build: BUILD_ID, node: process.version, execPath: process.execPath };
}

/** True when the other side is exactly this build on this Node. */
export function sameIdentity(other: Partial<Identity> | undefined): boolean {
  const own = identity();
  return (
    other !== undefined &&
    other.protocol === own.protocol &&
    other.build === own.build &&
    other.node === own.node &&
    other.execPath === own.execPath
  );
}

/** The directory of this user's decision services: `service/` in the state dir. */
export function serviceDir(env: NodeJS.ProcessEnv): string {
  return path.join(userStateDir({ env }), "service");
}

/** 32-bit FNV-1a of a string, as 8 hex digits (a short name, not a secret: identities are checked in full). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The socket of this build on this Node inside `dir`: one service per user, build and Node. */
export function socketPath(dir: string): string {
  const own = identity();
  return path.join(dir, `decide-${fnv1a(`${own.build}\0${own.node}\0${own.execPath}`)}.sock`);
}

/** Unix socket paths longer than this do not fit `sockaddr_un` on every system: no service there. */
export const MAX_SOCKET_PATH = 100;
