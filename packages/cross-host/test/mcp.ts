// The built `slashi-mcp` over the SDK's stdio client, as an agent starts it in a workspace.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/** The built MCP server. */
export const SLASHI_MCP = fileURLToPath(new URL("../../../apps/mcp-server/dist/bin.js", import.meta.url));

/** Starts `slashi-mcp --workspace <workspace>` with exactly `env`, hands `use` a connected client, then closes it. */
export async function withMcp<T>(
  workspace: string,
  env: Record<string, string>,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client({ name: "cross-host", version: "1.0.0" }, { capabilities: {} });
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
