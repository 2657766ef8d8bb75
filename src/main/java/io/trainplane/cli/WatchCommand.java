package io.trainplane.cli;

import io.trainplane.core.Json;
import io.trainplane.runs.Interruption;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.StepEntry;
import io.trainplane.runs.TrainingProgress;
import io.trainplane.workflow.PhaseTimeline;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Follows a run until it ends: one line per change (a step starts or ends, the status moves),
 * each with the time since the run was created, then the outcome. Only changes are printed, so
 * the output reads the same on a terminal, in a file or in CI. The exit code is the outcome.
 */
@Command(
        name = "watch",
        mixinStandardHelpOptions = true,
        description =
                "Follow a run until it ends: its steps with their elapsed time, then the outcome. Exit code: 0 succeeded, 1 failed or cancelled, 4 no such run.")
final class WatchCommand extends OneRunCommand implements Callable<Integer> {
    @ArgGroup(exclusive = true, multiplicity = "1")
    TableOptions.WithTable table;

    @Option(
            names = "--interval",
            defaultValue = "5",
            paramLabel = "SECONDS",
            description = "seconds between two looks at the run (default ${DEFAULT-VALUE})")
    double interval;

    @Option(
            names = "--output",
            defaultValue = "text",
            paramLabel = "FORMAT",
            description =
                    "text (default), json or yaml: one document (as 'status --output json') per change, the last one final; an error's too")
    OutputFormat output;

    @Option(
            names = "--progress",
            defaultValue = "auto",
            paramLabel = "MODE",
            description = "how the text output shows the run: " + PhaseLines.Mode.HELP)
    PhaseLines.Mode progressMode;

    /** How long watch waits for the record of a run whose execution has started (StartRun writes it). */
    static final Duration RECORD_WAIT = Duration.ofMinutes(5);

    @Override
    public Integer call() throws InterruptedException {
        if (!(interval > 0) || interval > 3600) {
            throw new UserInputException(
                    "--interval must be more than 0 and at most 3600 seconds, e.g. --interval 5; it was " + interval);
        }
        Duration pause = Duration.ofMillis(Math.max(1, Math.round(interval * 1000)));
        PrintWriter out = command.commandLine().getOut();
        View view =
                new View(out, table.stack(), progressMode, clients.terminal().interactive());
        try (TableOptions.Source source = table.open(clients)) {
            String lastSnapshot = null;
            boolean executionEndNoted = false;
            awaitRecord(source, pause);
            while (true) {
                // Whether the local run's process still goes, asked before the record is read: it
                // writes the record a last time before it lets go, so a record read after a "no"
                // is the last one there will be.
                boolean localRunGoes =
                        source.isLocal() && LiveStore.running(source.local().dir(), runId);
                RunRecord run = find(source);
                List<StepEntry> steps = source.store().steps(runId);
                Optional<TrainingProgress> progress = source.store().progress(runId);
                if (output.structured()) {
                    // A running phase's duration grows with every look: only a change of what is recorded prints.
                    String snapshot = Json.write(StatusCommand.toJson(run, steps, progress, table.stack())
                            .without(List.of("updatedAt", "phases")));
                    if (!snapshot.equals(lastSnapshot)) {
                        out.println(output.write(StatusCommand.toJson(run, steps, progress, table.stack())));
                        lastSnapshot = snapshot;
                    }
                } else {
                    view.show(run, steps, progress);
                }
                if (run.status().isTerminal()) {
                    if (output == OutputFormat.text) {
                        view.outcome(run);
                    }
                    return outcome(run.status());
                }
                if (source.isLocal() && !localRunGoes) {
                    command.commandLine()
                            .getErr()
                            .println(
                                    "run " + runId + " stopped at " + run.status()
                                            + ": the 'trainplane run' that ran it ended before the run did; it will not change");
                    return Main.FAILED;
                }
                if (!executionEndNoted && source.stack() != null && run.executionArn() != null) {
                    ExecutionStatus execution = executionStatus(run.executionArn());
                    if (execution != null && execution != ExecutionStatus.RUNNING) {
                        executionEndNoted = true;
                        command.commandLine()
                                .getErr()
                                .println("the execution is " + execution
                                        + "; waiting for the safety net to finish the run's record");
                    }
                }
                out.flush();
                clients.sleep(pause);
            }
        }
    }

    /**
     * Right after {@code start} the execution runs before StartRun has written the record: while
     * the run's execution is RUNNING, wait for the record (up to {@link #RECORD_WAIT}) instead of
     * saying there is no such run. A run with neither is not found (exit 4, from {@link #find}).
     */
    private void awaitRecord(TableOptions.Source source, Duration pause) throws InterruptedException {
        if (table.stack() == null || source.store().find(runId).isPresent()) {
            return;
        }
        String executionArn = executionArn(table.stack());
        Duration waited = Duration.ZERO;
        boolean told = false;
        while (executionArn != null
                && executionStatus(executionArn) == ExecutionStatus.RUNNING
                && source.store().find(runId).isEmpty()) {
            if (waited.compareTo(RECORD_WAIT) >= 0) {
                throw new NotFoundException("run " + runId + ": its execution has been running for "
                        + StatusCommand.duration(waited) + " without writing the run's record; see the execution "
                        + executionArn + " in the Step Functions console");
            }
            if (!told) {
                command.commandLine()
                        .getErr()
                        .println("run " + runId + ": the execution is running and has not written the run's record"
                                + " yet (StartRun does); waiting up to " + StatusCommand.duration(RECORD_WAIT));
                told = true;
            }
            clients.sleep(pause);
            waited = waited.plus(pause);
        }
    }

    /** The ARN the run's execution has (its name is the run id), or null when the stack has no pipeline. */
    private String executionArn(String stack) {
        try {
            String machine = StackOutputs.output(clients.cloudFormation(), stack, StackOutputs.TRAINING_PIPELINE);
            return io.trainplane.aws.ExecutionArns.of(machine, runId);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The execution's status, or null when Step Functions does not know it (the record is what counts). */
    private ExecutionStatus executionStatus(String executionArn) {
        try {
            return clients.sfn()
                    .describeExecution(r -> r.executionArn(executionArn))
                    .status();
        } catch (ExecutionDoesNotExistException e) {
            return null;
        }
    }

    static int outcome(RunStatus status) {
        return status == RunStatus.SUCCEEDED ? Main.SUCCEEDED : Main.FAILED;
    }

    /** The text view: what changed since the last look. */
    static final class View {
        private final PrintWriter out;
        private final Set<String> started = new HashSet<>();
        private final Set<String> ended = new HashSet<>();
        private final Set<String> interruptions = new HashSet<>();
        private final Set<RunPhase> phases = new HashSet<>();
        private final String stack;
        private final boolean everyStep;
        private final boolean bar;
        private PhaseLines lines;
        private String status;

        View(PrintWriter out, String stack) {
            this(out, stack, PhaseLines.Mode.lines, false);
        }

        /**
         * {@code mode} {@code states} shows every step and status change; the others one line per
         * phase change, the failed steps and the epochs ({@code terminal}: whether a bar can be drawn).
         */
        View(PrintWriter out, String stack, PhaseLines.Mode mode, boolean terminal) {
            this.out = out;
            this.stack = stack;
            this.everyStep = mode == PhaseLines.Mode.states;
            this.bar = mode.bar(terminal);
        }

        void show(RunRecord run, List<StepEntry> steps) {
            show(run, steps, Optional.empty());
        }

        void show(RunRecord run, List<StepEntry> steps, Optional<TrainingProgress> progress) {
            if (lines == null) {
                out.println("run " + run.runId() + " created " + run.createdAt());
                lines = new PhaseLines(out, bar, at -> stamp(run, at));
            }
            for (PhaseTimeline.Phase p : PhaseTimeline.of(run, steps)) {
                if (phases.add(p.phase())) {
                    lines.phase(p.phase(), p.started());
                }
            }
            progress.filter(p -> lines.phase() == RunPhase.TRAIN).ifPresent(lines::epoch);
            for (StepEntry s : steps) {
                String key = s.state() + "@" + s.started();
                boolean failed = s.outcome() != null && !"ok".equals(s.outcome()) && !"succeeded".equals(s.outcome());
                if (started.add(key) && s.ended() == null && everyStep) {
                    line(run, s.started(), "▶ " + s.state());
                }
                if (s.ended() != null && ended.add(key) && (everyStep || failed)) {
                    String mark = "ok".equals(s.outcome()) || "succeeded".equals(s.outcome())
                            ? "✓"
                            : s.outcome() == null ? "·" : "✗";
                    line(
                            run,
                            s.ended(),
                            String.format(
                                    "%s %-24s %8s  %s%s",
                                    mark,
                                    s.state(),
                                    StatusCommand.duration(Duration.between(s.started(), s.ended())),
                                    s.outcome() == null ? "" : s.outcome(),
                                    firstLine(s.detail())));
                }
            }
            for (Interruption i : run.interruptions()) {
                if (interruptions.add(i.pod())) {
                    line(run, i.at(), "⚡ interrupted: " + i.describe());
                }
                if (i.resumed() && interruptions.add(i.pod() + "@resumed")) {
                    line(run, i.resumedAt(), "↻ " + InterruptionsReport.resumed(i));
                }
            }
            String now = run.status() + " (phase "
                    + (run.phase() == null ? null : run.phase().label()) + ")";
            if (!now.equals(status)) {
                if (everyStep) {
                    line(run, run.updatedAt(), "status " + now);
                }
                status = now;
            }
            if (run.status().isTerminal() && lines.phase() != null) {
                lines.end(run.updatedAt(), run.status().name());
            }
        }

        /** A step's detail in one line: the whole of it is in the outcome (or in status). */
        private static String firstLine(String detail) {
            if (detail == null || detail.isBlank()) {
                return "";
            }
            String first = detail.lines().findFirst().orElse("");
            return " (" + (first.length() > 100 ? first.substring(0, 100) + "…" : first)
                    + (detail.contains("\n") ? " …" : "") + ")";
        }

        void outcome(RunRecord run) {
            out.println("run " + run.runId() + " " + run.status() + " after "
                    + StatusCommand.duration(Duration.between(run.createdAt(), run.updatedAt())));
            run.metrics().forEach((k, v) -> out.printf("metric: %s = %s%n", k, v));
            InterruptionsReport.print(out, run, 11);
            if (run.error() != null) {
                out.println("failed in: " + run.error().state());
                out.println("error:     " + run.error().error()
                        + (run.error().cause() == null ? "" : ": " + run.error().cause()));
                if (run.error().logTail() != null && !run.error().logTail().isBlank()) {
                    out.println("log tail (all of it: trainplane logs " + run.runId() + "):");
                    run.error().logTail().lines().forEach(l -> out.println("  | " + l));
                }
                if (run.error().cleanup() != null) {
                    LeftBehind.print(out, run.error(), stack, 11);
                }
            }
            LeftBehind.printWarnings(out, run, 11);
        }

        private void line(RunRecord run, Instant at, String text) {
            lines.line(at, text);
        }

        private static String stamp(RunRecord run, Instant at) {
            Duration d = Duration.between(run.createdAt(), at);
            return String.format("[%d:%02d:%02d]", d.toHours(), d.toMinutesPart(), d.toSecondsPart());
        }
    }
}
