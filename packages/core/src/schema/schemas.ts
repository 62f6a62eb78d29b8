/** The JSON Schemas Slashi ships, as objects. Each has an `$id` under https://slashi.dev/schemas/. */
import commandDefinitionJson from "./command-definition.schema.json" with { type: "json" };
import commandDefinitionsJson from "./command-definitions.schema.json" with { type: "json" };
import teamFileJson from "./team-file.schema.json" with { type: "json" };

/** A JSON Schema object. Give it an `$id` so it is compiled once and can be referenced. */
export type JsonSchema = { $id?: string } & Record<string, unknown>;

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

const COMMAND_DEFINITION_REF = "command-definition.json";

/** Replaces every `$ref` to the command-definition schema by a local `#/$defs/commandDefinition`. */
function inlineRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inlineRefs);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === "$ref" && value === COMMAND_DEFINITION_REF ? "#/$defs/commandDefinition" : inlineRefs(value);
  }
  return out;
}

/**
 * A copy of `schema` that needs no other schema: the command-definition schema is embedded under
 * `$defs.commandDefinition` (its step definitions merged into `$defs`) and references to it become local.
 * For editors and tools that do not resolve `$ref` across files by `$id`, such as a JSON schema shipped inside
 * an editor extension. The copy has no `$id` (it would clash with the original's in a validator's cache).
 * @param schema - {@link teamFileSchema} or {@link commandDefinitionsSchema}
 */
export function standaloneSchema(schema: JsonSchema): JsonSchema {
  const { $defs: stepDefs, $id: _id, $schema: _schema, ...definition } = commandDefinitionSchema;
  const { $id: _ownId, ...rest } = inlineRefs(schema) as JsonSchema;
  const own = (schema.$defs as Record<string, unknown> | undefined) ?? {};
  return {
    ...rest,
    $defs: { ...(stepDefs as Record<string, unknown>), ...own, commandDefinition: definition },
  };
}
