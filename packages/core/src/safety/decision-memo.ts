/**
 * Work one decision would otherwise repeat, done once: a command's invocation, and what the whole-line checks
 * and the per-command checks both read from the same invocation (its secret reads, network clients,
 * environment dumps, git's global options, the files it reads). Answers are kept only inside
 * {@link oneDecision}, keyed by the objects that decision made; they are dropped when it returns, so nothing
 * carries over from one decision to the next, and a caller outside a decision always gets a fresh answer.
 */

/** The answers of the decision under way, by what was asked and then by key object; none outside one. */
let answers: Map<unknown, Map<object, unknown>> | undefined;

/**
 * Runs one decision with its own memo. The commands, invocations and contexts it makes must not change while
 * it runs (the classifiers only read them).
 * @param decide - the decision; synchronous
 */
export function oneDecision<T>(decide: () => T): T {
  const outer = answers;
  answers = new Map();
  try {
    return decide();
  } finally {
    answers = outer;
  }
}

/**
 * `compute(key)`, once per key object and question within the decision under way; every time outside one.
 * @param question - what is asked of the key (the function itself, or an object standing for it and its other inputs)
 */
export function once<K extends object, V>(key: K, question: unknown, compute: (key: K) => V): V {
  if (answers === undefined) return compute(key);
  let known = answers.get(question);
  if (known === undefined) answers.set(question, (known = new Map()));
  else if (known.has(key)) return known.get(key) as V;
  const value = compute(key);
  known.set(key, value);
  return value;
}
