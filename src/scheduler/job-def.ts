// A scheduled job is data: a name, when it runs, which streams it covers and how. The defaults are the
// JSON files of the top-level `jobs/` folder; a user's own are files in the folder `jobsDir` names.
export interface JobDef {
  /** Stable name: the key of `jobs` overrides in the config file, a label in logs and metrics. */
  name: string;
  description: string;
  /** Cron expression: 5 fields (minute first) or 6 (seconds first), in the configured time zone. */
  schedule: string;
  /** Stream names or groups, as `ds-mirror sync` takes them. */
  streams: readonly string[];
  /** `full` ignores checkpoints and date windows and detects deletions; `incremental` resumes and windows. */
  mode: 'full' | 'incremental';
  /** Off unless configured on (default: on). */
  enabled?: boolean;
  /** What the job buys: why it runs when it runs. */
  why?: string;
  /** IANA time zone of this job's schedule, over the configured `timezone`. */
  timeZone?: string;
  /** The JSON file it was read from, named when the job is refused. */
  file?: string;
}

/** A job (or a job file) the daemon will not run, with one line naming its file and field. */
export interface RefusedJob {
  /** The job's name, or the file's when it could not be read. */
  name: string;
  problem: string;
}
