/**
 * `--verbose` is accepted by every command: the core's log entries, debug included, also go to
 * stderr. Set once by the CLI's entry point before any command runs.
 */
let verbose = false;

export function takeVerboseFlag(argv: string[]): string[] {
  verbose = argv.includes('--verbose');
  return argv.filter((arg) => arg !== '--verbose');
}

export function isVerbose(): boolean {
  return verbose;
}
