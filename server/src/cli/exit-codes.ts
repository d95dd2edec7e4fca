/** What the `tessera` command's exit status means. Every --help lists them (EXIT_CODES_HELP); README.md too. */
export const EXIT = {
  ok: 0,
  /** The database could not be reached, or something unexpected failed. */
  failed: 1,
  /** A wrong command line or configuration, or a value the product refuses (an existing user, a weak password). */
  usage: 2,
  /** `import` refused more rows than --max-rejects allows; the rows it could load are loaded. */
  rejects: 3,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0  done
  1  failed: the database could not be reached, or an unexpected error (--debug prints its stack)
  2  usage: a wrong command line or configuration, or a value refused (an existing user, a weak password)
  3  import: more rows refused than --max-rejects allows (the other rows are loaded)`;
