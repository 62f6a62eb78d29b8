import { describe, expect, it } from "vitest";
import { cmd } from "../../test/safety/command.js";
import { invocationOf } from "./argv.js";
import { classifyInline } from "./inline.js";

function codes(text: string): string[] {
  return classifyInline(invocationOf(cmd(text))!).map((f) => f.code);
}

describe("inline code", () => {
  it.each([
    "python script.py",
    "python3 -m pytest",
    "python -V",
    "python script.py -c config.yml",
    "python3 -W ignore script.py",
    "python -m http.server",
    "node index.js",
    "node --version",
    "node --require ts-node/register app.ts",
    "ruby app.rb",
    "ruby -rjson app.rb",
    "perl script.pl",
    "perl -I lib script.pl",
    "php artisan serve",
    "lua script.lua",
    "deno run main.ts",
    "deno test",
    "bun run build",
    "bun test",
    "osascript script.scpt",
    "Rscript analysis.R",
    "pwsh ./script.ps1",
    "pwsh -File ./script.ps1",
    "pwsh -NoProfile -File x.ps1",
    "pwsh -ExecutionPolicy Bypass -File x.ps1",
    "bash script.sh",
    "bash -c %echo·hi",
    "sh -c %ls",
    "bash -e -x script.sh",
    "cmd /d dir",
    "echo python -c x",
  ])("raises nothing for %s", (text) => {
    expect(codes(text)).toEqual([]);
  });

  it.each([
    ["python -c print(1)", "inline.code"],
    ["python3 -c x", "inline.code"],
    ["python3.12 -c x", "inline.code"],
    ["python2 -c x", "inline.code"],
    ["pypy3 -c x", "inline.code"],
    ["py -c x", "inline.code"],
    ["python -Bc x", "inline.code"],
    ["python -Ic x", "inline.code"],
    ["python -cprint(1)", "inline.code"],
    ["python -W ignore -c x", "inline.code"],
    ["python -u -c x", "inline.code"],
    ["/usr/bin/python3 -c x", "inline.code"],
    ["python.exe -c x", "inline.code"],
    ["node -e x", "inline.code"],
    ["node -p 1+1", "inline.code"],
    ["node -pe x", "inline.code"],
    ["node --eval x", "inline.code"],
    ["node --eval=x", "inline.code"],
    ["node --print x", "inline.code"],
    ["node --input-type=module -e x", "inline.code"],
    ["node --require ts-node/register -e x", "inline.code"],
    ["nodejs -e x", "inline.code"],
    ["ts-node -e x", "inline.code"],
    ["tsx -e x", "inline.code"],
    ["bun -e x", "inline.code"],
    ["bun --eval x", "inline.code"],
    ["bun -p x", "inline.code"],
    ["deno eval x", "inline.code"],
    ["deno --quiet eval x", "inline.code"],
    ["ruby -e x", "inline.code"],
    ["ruby -ne x", "inline.code"],
    ["ruby -rjson -e x", "inline.code"],
    ["perl -e x", "inline.code"],
    ["perl -E x", "inline.code"],
    ["perl -ne x", "inline.code"],
    ["perl -pe x f", "inline.code"],
    ["perl -Mstrict -e x", "inline.code"],
    ["perl -I lib -e x", "inline.code"],
    ["php -r x", "inline.code"],
    ["php -R x", "inline.code"],
    ["lua -e x", "inline.code"],
    ["luajit -e x", "inline.code"],
    ["Rscript -e x", "inline.code"],
    ["Rscript --expr=x", "inline.code"],
    ["R -e x", "inline.code"],
    ["osascript -e x", "inline.code"],
    ["osascript -l JavaScript -e x", "inline.code"],
    ["julia -e x", "inline.code"],
    ["elixir -e x", "inline.code"],
    ["pwsh -Command x", "inline.code"],
    ["pwsh -command x", "inline.code"],
    ["pwsh -c x", "inline.code"],
    ["pwsh -Com x", "inline.code"],
    ["pwsh -comm x", "inline.code"],
    ["pwsh --command x", "inline.code"],
    ["pwsh -NoProfile -NonInteractive -Command x", "inline.code"],
    ["pwsh -ExecutionPolicy Bypass -Command x", "inline.code"],
    ["pwsh -CommandWithArgs x", "inline.code"],
    ["pwsh -cwa x", "inline.code"],
    ["powershell -Command x", "inline.code"],
    ["powershell.exe -c x", "inline.code"],
    ["POWERSHELL.EXE /c x", "inline.code"],
    ["powershell Get-Process", "inline.code"],
    ["powershell -NoProfile Remove-Item·x", "inline.code"],
    ["cmd /c del x", "inline.code"],
    ["cmd.exe /C dir", "inline.code"],
    ["cmd /k x", "inline.code"],
    ["pwsh -EncodedCommand AAAA", "inline.encoded"],
    ["pwsh -encodedcommand AAAA", "inline.encoded"],
    ["pwsh -enc AAAA", "inline.encoded"],
    ["pwsh -e AAAA", "inline.encoded"],
    ["pwsh -ec AAAA", "inline.encoded"],
    ["pwsh -en AAAA", "inline.encoded"],
    ["pwsh -Encoded AAAA", "inline.encoded"],
    ["pwsh -EncodedC AAAA", "inline.encoded"],
    ["pwsh --EncodedCommand AAAA", "inline.encoded"],
    ["powershell /enc AAAA", "inline.encoded"],
    ["powershell -NoP -NonI -W Hidden -Enc AAAA", "inline.encoded"],
    ["pwsh -e:AAAA", "inline.encoded"],
    ["bash -c $CMD", "inline.shell-dynamic"],
    ['sh -c "$X"', "inline.shell-dynamic"],
    ["bash -lc $(cat·x)", "inline.shell-dynamic"],
    ["zsh -xc $X", "inline.shell-dynamic"],
    ["dash -c", "inline.shell-dynamic"],
    // every shell of core's one list, by its versioned name too
    ["zsh5 -c $X", "inline.shell-dynamic"],
    ["bash5.2 -c $X", "inline.shell-dynamic"],
    ["rzsh -c $X", "inline.shell-dynamic"],
    ["posh -c $X", "inline.shell-dynamic"],
  ])("flags %s as %s", (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it("marks encoded PowerShell as deny and inline code as ask", () => {
    expect(classifyInline(invocationOf(cmd("pwsh -enc AAAA"))!)[0]!.severity).toBe("deny");
    expect(classifyInline(invocationOf(cmd("python -c x"))!)[0]!.severity).toBe("ask");
  });

  it.each([
    ["perl -pi -e s/a/b/ f", ["inline.code", "tool.in-place-edit"]],
    ["perl -i.bak -pe s/a/b/ f", ["inline.code", "tool.in-place-edit"]],
    ["perl -Mstrict -e x", ["inline.code"]],
    ["ruby -i -pe x f", ["inline.code", "tool.in-place-edit"]],
  ])("reports in-place editing by %s", (text, expected) => {
    expect(codes(text)).toEqual(expected);
  });
});
