/** The JSON Schemas Slashi ships, as objects. Each has an `$id` under https://slashi.dev/schemas/. */
import commandDefinitionJson from "./command-definition.schema.json" with { type: "json" };
import commandDefinitionsJson from "./command-definitions.schema.json" with { type: "json" };
import teamFileJson from "./team-file.schema.json" with { type: "json" };
import type { JsonSchema } from "./validator.js";

/** One command definition (`name`, `description`, `args`, `steps`), with every step kind under `$defs`. */
export const commandDefinitionSchema: JsonSchema = commandDefinitionJson as JsonSchema;

/** An array of command definitions, as in the user setting `slashi.customCommands`. */
export const commandDefinitionsSchema: JsonSchema = commandDefinitionsJson as JsonSchema;

/** The team file `.vscode/slashi.json`: `{ "$schema"?, "version"?: 1, "commands": [...] }`. */
export const teamFileSchema: JsonSchema = teamFileJson as JsonSchema;

/** Every schema above, for registering with a validator so `$ref`s between them resolve. */
export const slashiSchemas: readonly JsonSchema[] = [
  commandDefinitionSchema,
  commandDefinitionsSchema,
  teamFileSchema,
];
