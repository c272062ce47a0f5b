export const usage = `Pairwise — did my intervention change the model's behaviour, and can I trust the comparison?

Usage:
  pairwise serve [--db FILE] [--port N] [--no-open] [--demo]
      Start the browser host on 127.0.0.1 and print its address (with a per-launch token).
  pairwise index PATH... [--db FILE] [--json]
      Index run files and folders into the database.
  pairwise runs [--db FILE] [--json]
      List the indexed runs.
  pairwise compare [--db FILE] [--experiment ID] [--reference CONDITION]
                   [--format json|table|csv|summary-csv] [--out FILE] [--resamples N]
  pairwise compare PATH... [same options but --db]
      Compare every condition of an experiment with its reference (and declared compare_to
      pairs). With PATHs, index them into a temporary database first.
  pairwise sync [--db FILE] [--dry-run]
      Send the current runs and saved finding revisions to MechLens (key from
      $MECHLENS_API_KEY, address from $MECHLENS_API_URL or the saved setting).
  pairwise --help | --version

The database is --db FILE, else $PAIRWISE_DB, else $XDG_DATA_HOME/pairwise/pairwise.db.
Exit codes: 0 ok, 1 failure, 2 usage error.`;
