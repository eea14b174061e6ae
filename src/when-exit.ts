/**
 * What the build puts in place of the package when-exit (scripts/bundle.mjs, esbuild's
 * `alias`), which conf's file writer (atomically) uses to remove its temporary files at exit.
 * when-exit answers SIGINT, SIGTERM and SIGHUP by raising the same signal again. On Windows
 * that is process.kill of its own process, which Node carries out as TerminateProcess with
 * exit code 1 whoever listens: a Ctrl-C would end econsig at once with 1 (an invalid file, in
 * docs/cli-contract.md "Exit codes") instead of the clean stop and 130 of src/signals.ts.
 * Here the callbacks run at 'exit' only: src/signals.ts turns a signal into a normal end, which
 * emits it.
 */
export default function whenExit(callback: () => void): () => void {
  process.once('exit', callback);
  return () => void process.off('exit', callback);
}
