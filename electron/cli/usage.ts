export const usage = `Pairwise — did my intervention change the model's behaviour, and can I trust the comparison?

Usage:
  pairwise serve [--db FILE] [--port N] [--no-open] [--demo] [--read-only]
      Start the browser host on 127.0.0.1 and print its address (with a per-launch token).
  pairwise serve --host ADDRESS --auth FILE --public-url URL [--port N] [--read-only]
                 [--trust-proxy] [--db FILE]
      A lab server (docs/lab-server.md): users and roles from the token file, reached at
      URL only (default port 8080); it also accepts pushes from \`pairwise sync\`.
  pairwise serve tokens add USER --role reviewer|editor --auth FILE
  pairwise serve tokens remove USER --auth FILE | list --auth FILE
      Manage a lab server's users; add prints the new token once.
  pairwise index PATH... [--db FILE] [--json] [--endpoint URL] [--no-archive]
      Index run files and folders into the database. A PATH may be s3://BUCKET/PREFIX (AWS
      credentials as the AWS CLI finds them); --endpoint names an S3-compatible store. Before
      exiting it prepares search and archives the texts into the database (compressed), so
      the library no longer reads them from the files; --no-archive skips that (the app
      archives them in the background when it opens the library).
  pairwise runs [--db FILE] [--json]
      List the indexed runs.
  pairwise compare [--db FILE] [--experiment ID] [--reference CONDITION]
                   [--format json|table|csv|summary-csv] [--out FILE] [--resamples N]
  pairwise compare PATH... [same options but --db] [--endpoint URL]
      Compare every condition of each experiment with its reference (and declared compare_to
      pairs), one section per experiment. With PATHs, index them into a temporary database
      first. A reference nothing declares is guessed, and the report says so.
  pairwise compare --engine duckdb [--parquet DIR | --db FILE] [--experiment ID]
                   [--reference CONDITION] [--format …] [--resamples N] [--endpoint URL]
      The same output computed by DuckDB over a Parquet export: a local folder, or an
      s3://BUCKET/PREFIX (read by DuckDB's httpfs if installed, else copied to a temporary
      folder first; --verbose says which). Two runs too (RUN_A RUN_B, --baseline/--candidate,
      or A B paths, indexed and exported to a temporary folder first).
  pairwise compare A B [--format …]          (A, B: files or folders)
  pairwise compare --db FILE RUN_A RUN_B
  pairwise compare --db FILE --baseline RUN --candidate RUN
      Compare any two runs: A is the baseline, B the candidate, whatever their grouping;
      two paths are matched task by task.
  pairwise examples [--db FILE] [--experiment ID] [--pair N|CONDITION] [--search TEXT]
                    [--filter CRITERION=CLASS] [--output-changed yes|no]
                    [--behaviour-changed yes|no] [--side both|reference|candidate]
                    [--input-mismatch] [--sort example_id|output_changed|behavior_changed|
                    delta:CRITERION] [--desc] [--limit N] [--after CURSOR] [--count] [--json]
      The explorer's examples of one compared pair, a page at a time (default: the latest
      experiment with examples, pair 0, 50 rows); CRITERION may be "any", CLASS is improved,
      regressed, unchanged, changed or not_comparable. --count prints only how many match.
  pairwise export parquet DIR [--db FILE] [--experiment ID]... [--json]
      Write experiments, runs, examples and compared examples as Parquet files
      (docs/parquet.md), comparing each experiment first.
  pairwise sync [--db FILE] [--dry-run]
      Send the current runs and saved finding revisions to MechLens (key from
      $MECHLENS_API_KEY, address from $MECHLENS_API_URL or the saved setting).
  pairwise --help | --version

The database is --db FILE, else $PAIRWISE_DB, else $XDG_DATA_HOME/pairwise/pairwise.db.
Exit codes: 0 ok, 1 failure, 2 usage error.`;
