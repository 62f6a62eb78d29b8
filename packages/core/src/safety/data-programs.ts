/**
 * Programs whose words are only data: they never run a word as code, and no option of theirs runs another
 * program or loads code. A host that must know which programs of a line may run a repository file (an approval's
 * binding) need not look at their words: `cat prog.awk`, `cp a b`, `test -f ./x` run nothing of the repository.
 * Beside `directoryCodeOf`'s tools, which run the directory's code though no word names it, this is the
 * other end: programs that run nothing however their words read.
 */

/** What a data program does with its words. */
export type DataUse =
  /** Nothing: `:`, `true`, `false`. */
  | "nothing"
  /** Prints or computes from its words, never opening a file: `echo`, `printf`, `tr`, `sleep`. */
  | "values"
  /** Changes or reads the shell's own state: its directory, variables, jobs, exit. */
  | "shell state"
  /** Looks at names and metadata only, never at contents: `ls`, `stat`, `test`, `basename`. */
  | "names and metadata"
  /** Reads files as data: `cat`, `grep`, `diff`, checksums. */
  | "reads files"
  /** Creates, removes, copies or changes files or their metadata: `cp`, `rm`, `mkdir`, `chmod`, `tee`. */
  | "changes files";

/** The data programs, by name, with what they do with their words. */
const DATA_PROGRAMS: ReadonlyMap<string, DataUse> = new Map<string, DataUse>([
  [":", "nothing"],
  ["true", "nothing"],
  ["false", "nothing"],
  ["echo", "values"],
  ["printf", "values"],
  ["tr", "values"],
  ["sleep", "values"],
  ["cd", "shell state"],
  ["pushd", "shell state"],
  ["popd", "shell state"],
  ["dirs", "shell state"],
  ["export", "shell state"],
  ["local", "shell state"],
  ["declare", "shell state"],
  ["typeset", "shell state"],
  ["readonly", "shell state"],
  ["unset", "shell state"],
  ["shift", "shell state"],
  ["exit", "shell state"],
  ["return", "shell state"],
  ["wait", "shell state"],
  ["[", "names and metadata"],
  ["test", "names and metadata"],
  ["ls", "names and metadata"],
  ["stat", "names and metadata"],
  ["du", "names and metadata"],
  ["df", "names and metadata"],
  ["basename", "names and metadata"],
  ["dirname", "names and metadata"],
  ["realpath", "names and metadata"],
  ["readlink", "names and metadata"],
  ["cat", "reads files"],
  ["tac", "reads files"],
  ["head", "reads files"],
  ["tail", "reads files"],
  ["wc", "reads files"],
  ["cut", "reads files"],
  ["grep", "reads files"],
  ["egrep", "reads files"],
  ["fgrep", "reads files"],
  ["cmp", "reads files"],
  ["diff", "reads files"],
  ["md5sum", "reads files"],
  ["sha1sum", "reads files"],
  ["sha256sum", "reads files"],
  ["sha512sum", "reads files"],
  ["base64", "reads files"],
  ["tee", "changes files"],
  ["mkdir", "changes files"],
  ["rmdir", "changes files"],
  ["rm", "changes files"],
  ["cp", "changes files"],
  ["mv", "changes files"],
  ["ln", "changes files"],
  ["touch", "changes files"],
  ["chmod", "changes files"],
  ["chown", "changes files"],
  ["chgrp", "changes files"],
  ["mktemp", "changes files"],
]);

/**
 * What a program whose words are only data does with them ({@link DataUse}), by program name (basename, lower
 * case); `undefined` for any other program, whose words may name code it runs or loads (`awk -f`, `sed -f`,
 * `jq -f`, a compiler, `find -exec`, `xargs`). Writes of the programs that change files are the write checks'
 * concern, not this table's: `cp x .git/hooks/pre-commit` runs nothing now.
 */
export function dataUseOf(name: string): DataUse | undefined {
  return DATA_PROGRAMS.get(name);
}

/** Every data program with what it does with its words, in the table's order (for tests and documentation). */
export function dataPrograms(): [name: string, use: DataUse][] {
  return [...DATA_PROGRAMS];
}
