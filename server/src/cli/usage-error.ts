/**
 * A command used wrongly: the CLI prints the message on one line with a pointer at the command's --help, and
 * exits with code 2 (exit-codes.ts).
 */
export class UsageError extends Error {}

/** True when the arguments ask for help (`--help` or `-h` before any `--`): shown before anything is checked. */
export function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
