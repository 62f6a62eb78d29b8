/**
 * Reading the files a person or a repository controls (agent settings, policy files, MCP configs) without
 * letting one hang the CLI: everything goes through the runtime's bounded reader, so a FIFO, a device or a
 * link to `/dev/zero` in place of the file is refused at once (`FILE_UNSAFE`) instead of blocking forever.
 */
import { readBoundedFile } from "@slashi/runtime";

/**
 * The file's bytes, or `undefined` when there is no file. Other failures are thrown: `FILE_UNSAFE` for
 * anything but a regular file within the size limit, the file system's own error (`EACCES`) otherwise.
 */
export async function readIfPresent(file: string): Promise<Buffer | undefined> {
  try {
    return await readBoundedFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** {@link readIfPresent} decoded as UTF-8. */
export async function readTextIfPresent(file: string): Promise<string | undefined> {
  return (await readIfPresent(file))?.toString("utf8");
}
