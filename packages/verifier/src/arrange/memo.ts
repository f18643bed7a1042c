/** `load`, called once per distinct arguments: every later call shares the first one's answer. */
export function memo<A extends (string | number)[], T>(load: (...args: A) => T): (...args: A) => T {
  const loaded = new Map<string, T>();
  return (...args) => {
    const key = args.join('|');
    if (!loaded.has(key)) loaded.set(key, load(...args));
    return loaded.get(key) as T;
  };
}
