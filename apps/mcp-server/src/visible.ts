/**
 * The server's sinks show control characters: every text a client displays or hands a model (tool result text,
 * tool titles and descriptions, stderr log lines) passes through core's `showControls` on its way out, so a
 * reason, a policy pattern, a path or a command's output that holds C0/C1 controls, escape sequences or bidi
 * marks reaches the client only as visible `⟨U+XXXX⟩` tokens. It is done where the text leaves, for every tool
 * the server registers, so a new tool or a new message cannot skip it. `structuredContent` stays as it is: it is
 * data for programs, escaped by JSON on the wire.
 */
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/server";
import { showControls } from "@slashi/core";
import type { Logger } from "./services.js";

/** A tool result with every `text` content item made visible; anything else is returned as it is. */
export function visibleResult<R>(result: R): R {
  if (typeof result !== "object" || result === null) return result;
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return result;
  return {
    ...result,
    content: content.map((item: unknown) =>
      typeof item === "object" && item !== null && typeof (item as { text?: unknown }).text === "string"
        ? { ...item, text: showControls((item as { text: string }).text) }
        : item,
    ),
  };
}

/**
 * An elicitation form (its message, and the title and description of the schema and of each field) with control
 * characters made visible like a tool result: every form the server sends is built through this, for the pushed
 * `elicitation/create` and for the `input_required` answer alike.
 */
export function visibleElicitation<F extends { message: string; requestedSchema: unknown }>(form: F): F {
  return {
    ...form,
    message: showControls(form.message),
    requestedSchema: visibleSchema(form.requestedSchema),
  };
}

function visibleSchema(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return schema;
  const { properties } = schema as { properties?: unknown };
  return {
    ...visibleInfo(schema),
    ...(typeof properties === "object" && properties !== null
      ? {
          properties: Object.fromEntries(
            Object.entries(properties).map(([key, field]) => [key, visibleInfo(field)]),
          ),
        }
      : {}),
  };
}

/** Server instructions as a client shows them to its model: control characters made visible. */
export function visibleInstructions(text: string): string {
  return showControls(text);
}

/** A tool's config or update with its title and description made visible. */
function visibleInfo<T>(info: T): T {
  if (typeof info !== "object" || info === null) return info;
  const { title, description } = info as { title?: unknown; description?: unknown };
  return {
    ...info,
    ...(typeof title === "string" ? { title: showControls(title) } : {}),
    ...(typeof description === "string" ? { description: showControls(description) } : {}),
  };
}

type Handler = (...args: unknown[]) => unknown;

/**
 * Makes every tool `server` registers from now on show control characters in its result text, title and
 * description (also after `update`). Returns `server`.
 */
export function visibleTools(server: McpServer): McpServer {
  const register = server.registerTool.bind(server) as (
    name: string,
    config: unknown,
    handler: Handler,
  ) => RegisteredTool;
  const registerVisible = (name: string, config: unknown, handler: Handler): RegisteredTool => {
    const tool = register(name, visibleInfo(config), async (...args: unknown[]) =>
      visibleResult(await handler(...args)),
    );
    const update = tool.update.bind(tool);
    tool.update = (updates) => update(visibleInfo(updates));
    return tool;
  };
  server.registerTool = registerVisible as unknown as McpServer["registerTool"];
  return server;
}

/** A logger whose lines show control characters. */
export function visibleLogger(log: Logger): Logger {
  return (message) => log(showControls(message));
}
