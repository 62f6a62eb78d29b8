/**
 * The `slashi pack …` commands as data (help, flags) and their handlers, loaded on first use so other commands
 * never load the registry client.
 */
import type { Io } from "../io.js";
import type { CommandSpec, FlagSpec, ParsedArgs } from "../command-spec.js";

const JSON_FLAG: FlagSpec = { name: "json", type: "boolean", description: "print JSON instead of text" };
const YES_FLAG: FlagSpec = {
  name: "yes",
  short: "y",
  type: "boolean",
  description: "do not ask; accept (needed without a terminal)",
};

/** Specs of the pack commands, in help order. */
export const PACK_COMMANDS: readonly CommandSpec[] = [
  {
    path: ["pack", "init"],
    summary: "scaffold an action pack: package.json, slashi-pack.json, README",
    usage: ["pack init [DIR] --name NAME [--description TEXT] [--version V]"],
    flags: [
      {
        name: "name",
        type: "string",
        value: "NAME",
        description: "npm package name, such as @acme/slashi-pack",
      },
      { name: "description", type: "string", value: "TEXT", description: "one-line description" },
      { name: "version", type: "string", value: "V", description: "first version (default 0.1.0)" },
    ],
    operands: "words",
    examples: ["slashi pack init my-pack --name @acme/slashi-pack"],
  },
  {
    path: ["pack", "publish"],
    summary: "validate a pack, list what will need approval, publish it to its registry",
    usage: ["pack publish [DIR] [--tag TAG] [--dry-run] [--yes] [--json]"],
    flags: [
      { name: "tag", type: "string", value: "TAG", description: "dist-tag to set (default latest)" },
      { name: "dry-run", type: "boolean", description: "check and show everything, publish nothing" },
      YES_FLAG,
      JSON_FLAG,
    ],
    operands: "words",
    examples: ["slashi pack publish", "slashi pack publish ./my-pack --dry-run"],
    details:
      "The token comes from the registry's token source in <config dir>/registries.json (an environment variable or an npmrc file); it is never printed.",
  },
  {
    path: ["pack", "search"],
    summary: "find packs (keyword slashi-pack) in the configured registries",
    usage: ["pack search [WORDS...] [--json]"],
    flags: [JSON_FLAG],
    operands: "words",
    examples: ["slashi pack search terraform"],
  },
  {
    path: ["pack", "info"],
    summary: "show a pack's commands, the steps that need approval and their fingerprints",
    usage: ["pack info NAME[@VERSION] [--remote] [--json]"],
    flags: [
      { name: "remote", type: "boolean", description: "describe the registry's version even when installed" },
      JSON_FLAG,
    ],
    operands: "words",
    examples: ["slashi pack info @acme/slashi-pack", "slashi pack info @acme/slashi-pack@2.0.0"],
  },
  {
    path: ["pack", "install"],
    summary: "install a pack, checked against the registry listing before anything is unpacked",
    usage: ["pack install NAME[@VERSION|@TAG]... [--json]"],
    flags: [JSON_FLAG],
    operands: "words",
    examples: ["slashi pack install @acme/slashi-pack", "slashi pack install @acme/slashi-pack@1.2.0"],
  },
  {
    path: ["pack", "update"],
    summary: "update installed packs; asks when a command that needs approval changed",
    usage: ["pack update [NAME...] [--yes] [--json]"],
    flags: [YES_FLAG, JSON_FLAG],
    operands: "words",
    examples: ["slashi pack update", "slashi pack update @acme/slashi-pack --yes"],
  },
  {
    path: ["pack", "remove"],
    summary: "remove an installed pack",
    usage: ["pack remove NAME... [--force]"],
    flags: [
      {
        name: "force",
        type: "boolean",
        description: "remove a pack even though your policy extends it (every decision then fails)",
      },
    ],
    operands: "words",
    examples: ["slashi pack remove @acme/slashi-pack"],
    details:
      "A pack that your policy extends is not removed: the command names the policy file and line of the extends entry to change first.",
  },
  {
    path: ["pack", "approve"],
    summary: "let an installed pack's policy allow commands for policies that extend it",
    usage: ["pack approve NAME [--yes] [--revoke]"],
    flags: [YES_FLAG, { name: "revoke", type: "boolean", description: "withdraw the approval" }],
    operands: "words",
    examples: ["slashi pack approve @acme/slashi-pack", "slashi pack approve @acme/slashi-pack --revoke"],
    details:
      "A pack policy's deny and ask rules apply as soon as your policy extends the pack; its allow rules and loosening settings count only after this approval, which is bound to the pack's exact version.",
  },
  {
    path: ["pack", "list"],
    summary: "list installed packs with version, integrity and registry",
    usage: ["pack list [--json]"],
    flags: [JSON_FLAG],
    operands: "none",
    examples: ["slashi pack list"],
  },
];

type Handler = (args: ParsedArgs, io: Io) => Promise<number>;

/** Handlers of the pack commands by command path, loaded on first use. */
export const PACK_HANDLERS: Record<string, () => Promise<Handler>> = {
  "pack init": async () => (await import("./pack.js")).packInit,
  "pack publish": async () => (await import("./pack.js")).packPublish,
  "pack search": async () => (await import("./pack.js")).packSearch,
  "pack info": async () => (await import("./pack.js")).packInfo,
  "pack install": async () => (await import("./pack.js")).packInstall,
  "pack update": async () => (await import("./pack.js")).packUpdate,
  "pack remove": async () => (await import("./pack.js")).packRemove,
  "pack approve": async () => (await import("./pack.js")).packApprove,
  "pack list": async () => (await import("./pack.js")).packList,
};
