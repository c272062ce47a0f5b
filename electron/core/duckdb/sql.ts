/** A SQL string literal: DuckDB takes file names and run ids only as literals in some places. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
