// The public API of @slashi/runtime. Every export added here becomes public API: name it explicitly.
export {};
