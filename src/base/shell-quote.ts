// A word as a POSIX shell would need it typed: for showing a command as it runs (the permission
// card, the network log) from the words the shell expanded.

/** `word` unchanged when it needs no quoting, else single-quoted ('it'\''s'). */
export function quoteShellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command's words as one line a shell would run the same way. */
export function shellLine(argv: readonly string[]): string {
  return argv.map(quoteShellWord).join(" ");
}
