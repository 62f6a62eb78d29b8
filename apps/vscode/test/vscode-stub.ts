// A small stand-in for the `vscode` module: the surface vscode-host.ts uses, with hooks tests drive. Only the
// editor's API is replaced; everything else in a test is the real code.
type Listener<T> = (event: T) => void;

class Emitter<T> {
  listeners = new Set<Listener<T>>();
  event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(event: T): void {
    for (const l of [...this.listeners]) l(event);
  }
}

export const endExecution = new Emitter<{ execution: unknown; exitCode: number | undefined }>();
export const changeIntegration = new Emitter<{ terminal: unknown; shellIntegration: unknown }>();

export interface StubTerminal {
  name: string;
  creationOptions: unknown;
  shellIntegration: { executeCommand(commandLine: string): unknown } | undefined;
  exitStatus: undefined;
  sent: string[];
  shown: boolean;
  show(): void;
  sendText(text: string): void;
  dispose(): void;
}

export const created: StubTerminal[] = [];
/** What a new terminal does: attach shell integration after a delay (ms), or never (undefined). */
export const behaviour: { integrationAfter: number | undefined; exitCode: number | undefined } = {
  integrationAfter: 0,
  exitCode: 0,
};

/** Modal warnings shown (message, detail, buttons), and the button the next one answers with. */
export const warnings: { message: string; detail: string | undefined; buttons: string[] }[] = [];
export const warningAnswer: { button: string | undefined } = { button: undefined };

export const window = {
  terminals: [] as StubTerminal[],
  async showWarningMessage(
    message: string,
    options: { detail?: string },
    ...buttons: string[]
  ): Promise<string | undefined> {
    warnings.push({ message, detail: options.detail, buttons });
    return warningAnswer.button;
  },
  onDidEndTerminalShellExecution: endExecution.event,
  onDidChangeTerminalShellIntegration: changeIntegration.event,
  createTerminal(options: { name: string }): StubTerminal {
    const terminal: StubTerminal = {
      name: options.name,
      creationOptions: options,
      shellIntegration: undefined,
      exitStatus: undefined,
      sent: [],
      shown: false,
      show() {
        this.shown = true;
      },
      sendText(text: string) {
        this.sent.push(text);
      },
      dispose() {
        window.terminals = window.terminals.filter((t) => t !== terminal);
      },
    };
    created.push(terminal);
    window.terminals.push(terminal);
    if (behaviour.integrationAfter !== undefined) {
      setTimeout(() => {
        const integration = {
          executeCommand(commandLine: string) {
            terminal.sent.push(commandLine);
            const execution = { commandLine };
            const exitCode = behaviour.exitCode;
            setTimeout(() => endExecution.fire({ execution, exitCode }), 5);
            return execution;
          },
        };
        terminal.shellIntegration = integration;
        changeIntegration.fire({ terminal, shellIntegration: integration });
      }, behaviour.integrationAfter);
    }
    return terminal;
  },
};

export const env = { shell: "/bin/bash" };
export const workspace = { isTrusted: true };
export const extensions = { all: [] as unknown[] };
