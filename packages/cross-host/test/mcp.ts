// The built `slashi-mcp` over the SDK's stdio client, as an agent starts it in a workspace.
import { fileURLToPath } from "node:url";
import { Client, type ElicitResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/** The built MCP server. */
export const SLASHI_MCP = fileURLToPath(new URL("../../../apps/mcp-server/dist/bin.js", import.meta.url));

/** An agent that shows the server's forms to a person: each form's message is kept, and answered with `answer`. */
export interface McpForms {
  /** The messages of the forms the server asked, in order. */
  seen: string[];
  /** The answer to every form (default: accept, the run box ticked). */
  answer?: ElicitResult;
}

/**
 * Starts `slashi-mcp --workspace <workspace>` with exactly `env`, hands `use` a connected client, then closes it
 * (the transport ends the server). With `forms` the client declares form elicitation and answers each form.
 */
export async function withMcp<T>(
  workspace: string,
  env: Record<string, string>,
  use: (client: Client) => Promise<T>,
  forms?: McpForms,
): Promise<T> {
  const client = new Client(
    { name: "cross-host", version: "1.0.0" },
    { capabilities: forms ? { elicitation: { form: {} } } : {} },
  );
  if (forms)
    client.setRequestHandler("elicitation/create", async (request) => {
      forms.seen.push((request.params as { message: string }).message);
      return forms.answer ?? { action: "accept", content: { run: true } };
    });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SLASHI_MCP, "--workspace", workspace],
    env,
    cwd: workspace,
    stderr: "pipe",
  });
  await client.connect(transport);
  try {
    return await use(client);
  } finally {
    await client.close().catch(() => undefined);
  }
}
