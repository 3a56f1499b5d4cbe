//! The verdicts of `vcov replay`: the harness's status file, gcov's JSON, and the check of a claim.
