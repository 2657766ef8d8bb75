package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.StepEntry;
import io.trainplane.runs.TrainingProgress;
import io.trainplane.spec.EvaluationSpec;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.CleanupRecord;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description =
                "Show a run from the run store: status, phase, step timeline, metrics, actual cost beside the plan's, interruptions, what the run holds, kept and deleted, error and what to do about it.")
final class StatusCommand extends OneRunCommand implements Callable<Integer> {
    @ArgGroup(exclusive = true, multiplicity = "1")
    TableOptions.WithTable table;

    @Option(names = "--output", defaultValue = "text", paramLabel = "FORMAT", description = OutputFormat.HELP)
    OutputFormat output;

    @Override
    public Integer call() {
        RunRecord run;
        List<StepEntry> steps;
        Optional<TrainingProgress> progress;
        try (TableOptions.Source source = table.open(clients)) {
            run = find(source);
            steps = source.store().steps(runId);
            progress = source.store().progress(runId);
        }
        PrintWriter out = command.commandLine().getOut();
        if (output.structured()) {
            out.println(output.write(toJson(run, steps, progress, table.stack())));
        } else {
            print(out, run, steps, progress, table.stack());
        }
        return Main.SUCCEEDED;
    }

    /**
     * The run as JSON; {@code stack} (null if not known) goes into the cleanup command. Each phase
     * lasts from the entered time of its first state to the next phase's (PhaseTimeline); each step
     * from its state's entered time to its end, a poll loop's over the whole loop (StepHandler).
     */
    static ObjectNode toJson(RunRecord run, List<StepEntry> steps, Optional<TrainingProgress> progress, String stack) {
        ObjectNode n = toJson(run, steps, stack);
        n.set("phases", PhasesReport.toJson(run, steps, Instant.now()));
        progress.ifPresentOrElse(p -> n.set("progress", PhasesReport.toJson(p)), () -> n.putNull("progress"));
        return n;
    }

    private static ObjectNode toJson(RunRecord run, List<StepEntry> steps, String stack) {
        ObjectNode n = Json.object()
                .put("runId", run.runId())
                .put("status", run.status().name())
                .put("phase", run.phase() == null ? null : run.phase().label())
                .put("executionArn", run.executionArn())
                .put("createdAt", String.valueOf(run.createdAt()))
                .put("updatedAt", String.valueOf(run.updatedAt()));
        ArrayNode timeline = n.putArray("steps");
        for (StepEntry s : steps) {
            ObjectNode o = timeline.addObject().put("state", s.state()).put("started", String.valueOf(s.started()));
            if (s.ended() != null) {
                o.put("ended", s.ended().toString())
                        .put(
                                "durationSeconds",
                                Duration.between(s.started(), s.ended()).toMillis() / 1000.0);
            }
            o.put("outcome", s.outcome()).put("detail", s.detail());
        }
        ObjectNode metrics = n.putObject("metrics");
        run.metrics().forEach(metrics::put);
        gate(run)
                .ifPresentOrElse(
                        gate -> {
                            ObjectNode g = n.putObject("gate").put("metric", gate.metric());
                            if (gate.min() != null) {
                                g.put("min", gate.min());
                            }
                            if (gate.max() != null) {
                                g.put("max", gate.max());
                            }
                            Double value = run.metrics().get(gate.metric());
                            if (value != null) {
                                g.put("value", value).put("passed", gate.passes(value));
                            }
                        },
                        () -> n.putNull("gate"));
        n.set("cost", CostReport.toJson(run));
        n.set("interruptions", InterruptionsReport.toJson(run));
        n.set("output", outputJson(run));
        n.put("resumedFrom", resumedFrom(run));
        ObjectNode resources = n.putObject("resources");
        run.resources().asMap().forEach((name, value) -> {
            if (value instanceof List<?> list) {
                ArrayNode items = resources.putArray(name);
                list.forEach(item -> items.add(item.toString()));
            } else if (value instanceof Boolean flag) {
                resources.put(name, flag);
            } else {
                resources.put(name, value.toString());
            }
        });
        // The record's keys above are its bookkeeping; these say what they mean to a person.
        CleanupRecord.leftovers(run).forEach(n.putArray("holds")::add);
        CleanupRecord.kept(run).forEach(n.putArray("kept")::add);
        CleanupRecord.deleted(run).forEach(n.putArray("deleted")::add);
        if (run.error() != null) {
            n.putObject("error")
                    .put("state", run.error().state())
                    .put("error", run.error().error())
                    .put("cause", run.error().cause())
                    .put("logTail", run.error().logTail())
                    .put(
                            "whatToDo",
                            FailureReason.adviceFor(run.error().error()).orElse(null));
        } else {
            n.putNull("error");
        }
        run.resources().get(RunResources.BUDGET_REACHED).ifPresent(why -> n.put("stopped", why));
        LeftBehind.addTo(n, run, stack);
        return n;
    }

    static void print(
            PrintWriter out, RunRecord run, List<StepEntry> steps, Optional<TrainingProgress> progress, String stack) {
        out.println("run:        " + run.runId());
        out.println("status:     " + run.status() + " (phase "
                + (run.phase() == null ? null : run.phase().label()) + ")");
        if (run.executionArn() != null) {
            out.println("execution:  " + run.executionArn());
        }
        out.println("created:    " + run.createdAt());
        out.println("updated:    " + run.updatedAt() + " ("
                + duration(Duration.between(run.createdAt(), run.updatedAt())) + " after creation)");
        if (!steps.isEmpty()) {
            out.println("steps:");
            for (StepEntry s : steps) {
                out.printf(
                        "  %-24s %-24s %10s  %s%s%n",
                        s.state(),
                        s.started().truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                        s.ended() == null ? "running" : duration(Duration.between(s.started(), s.ended())),
                        s.outcome() == null ? "" : s.outcome(),
                        s.detail() == null ? "" : " (" + s.detail() + ")");
            }
        }
        PhasesReport.print(out, run, steps, Instant.now());
        progress.ifPresent(p -> out.println("training:   " + PhasesReport.line(p) + " (at " + p.at() + ")"));
        run.metrics().forEach((k, v) -> out.printf("metric:     %s = %s%n", k, v));
        gate(run).ifPresent(gate -> out.println("gate:       " + gateLine(gate, run.metrics())));
        printOutput(out, run);
        CostReport.print(out, run);
        if (resumedFrom(run) != null) {
            out.println("resumed:    from " + resumedFrom(run) + " (training.resumeFrom)");
        }
        InterruptionsReport.print(out, run, 12);
        printResources(out, run);
        run.resources().get(RunResources.BUDGET_REACHED).ifPresent(why -> out.println("stopped:    " + why));
        if (run.error() != null) {
            out.println("failed in:  " + run.error().state());
            out.println("error:      " + run.error().error()
                    + (run.error().cause() == null ? "" : ": " + run.error().cause()));
            FailureReason.adviceFor(run.error().error()).ifPresent(advice -> out.println("what to do: " + advice));
            if (run.error().logTail() != null && !run.error().logTail().isBlank()) {
                out.println("log tail:");
                run.error().logTail().lines().forEach(l -> out.println("  | " + l));
            }
            if (run.error().cleanup() != null) {
                LeftBehind.print(out, run.error(), stack, 12);
            }
        }
        LeftBehind.printWarnings(out, run, 12);
    }

    /**
     * What the run still holds (what cleanup has yet to delete), what it keeps on purpose, and what
     * its cleanup deleted, with when: the record's own bookkeeping keys are not shown as resources.
     */
    private static void printResources(PrintWriter out, RunRecord run) {
        List<String> holds = CleanupRecord.leftovers(run);
        out.println("holds:      " + (holds.isEmpty() ? "nothing" : String.join(" ", holds)));
        List<String> kept = CleanupRecord.kept(run);
        if (!kept.isEmpty()) {
            out.println("kept:       " + String.join(" ", kept));
        }
        var started = run.resources().get(RunResources.CLEANUP_STARTED);
        if (started.isPresent()) {
            var finished = run.resources().get(RunResources.CLEANUP_FINISHED);
            out.println("cleanup:    started " + started.get()
                    + finished.map(f -> ", finished " + f + " (" + duration(Duration.between(started.get(), f)) + ")")
                            .orElse(", not finished"));
        }
        List<String> deleted = CleanupRecord.deleted(run);
        if (!deleted.isEmpty()) {
            out.println("deleted:    " + String.join(" ", deleted));
        }
    }

    static String duration(Duration d) {
        long s = d.toSeconds();
        return s >= 3600
                ? String.format("%dh%02dm%02ds", s / 3600, s % 3600 / 60, s % 60)
                : s >= 60 ? String.format("%dm%02ds", s / 60, s % 60) : String.format("%ds", s);
    }

    /** The checkpoint the run started from (training.resumeFrom as StartRun resolved it), null when from scratch. */
    /** The run's quality gate when it has one (a bound on evaluation.metric), from its spec. */
    static Optional<EvaluationSpec> gate(RunRecord run) {
        try {
            EvaluationSpec gate = RunSpecs.fromNormalized(run.specJson()).evaluation();
            return gate.gated() ? Optional.of(gate) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty(); // a record without a readable spec: nothing to say about its gate
        }
    }

    /** {@code perplexity ≤ 4: 3.12, passed}, or why it failed, or that the evaluation has not reported yet. */
    static String gateLine(EvaluationSpec gate, java.util.Map<String, Double> metrics) {
        Double value = metrics.get(gate.metric());
        if (value == null) {
            return gate.describe() + " (not evaluated yet)";
        }
        return gate.describe() + ": " + value + (gate.passes(value) ? ", passed" : ", failed: " + gate.failure(value));
    }

    static String resumedFrom(RunRecord run) {
        return io.trainplane.core.Json.read(run.specJson())
                .path("training")
                .path("resumeFrom")
                .asText(null);
    }

    /** Where the outputs go (the spec's output.s3Uri) and, once copied, the model's URI and SHA-256. */
    static ObjectNode outputJson(RunRecord run) {
        ObjectNode output = io.trainplane.core.Json.object();
        io.trainplane.runs.RunOutputs copied = run.outputs();
        String s3Uri = copied != null
                ? copied.s3Uri()
                : io.trainplane.core.Json.read(run.specJson())
                        .path("output")
                        .path("s3Uri")
                        .asText(null);
        output.put("s3Uri", s3Uri);
        if (s3Uri != null) {
            // The checkpoint sidecar's, synced while the training runs; cleanup never deletes them.
            output.put("checkpoints", s3Uri + io.trainplane.spec.OutputSpec.CHECKPOINTS_PREFIX);
        }
        if (copied != null && copied.modelUri() != null) {
            output.put("modelUri", copied.modelUri()).put("modelSha256", copied.modelSha256());
        }
        if (copied != null && copied.checkpoint() != null) {
            output.put("checkpoint", copied.checkpoint());
        }
        return output;
    }

    private static void printOutput(java.io.PrintWriter out, RunRecord run) {
        ObjectNode output = outputJson(run);
        if (output.path("s3Uri").isTextual()) {
            out.printf("output:     %s%n", output.path("s3Uri").asText());
            out.printf(
                    "checkpoints: %s (synced as written, kept)%n",
                    output.path("checkpoints").asText());
        }
        if (output.has("modelUri")) {
            out.printf(
                    "model:      %s sha256 %s%n",
                    output.path("modelUri").asText(), output.path("modelSha256").asText());
        }
        if (output.has("checkpoint")) {
            out.printf(
                    "checkpoint: %s (copied with the outputs)%n",
                    output.path("checkpoint").asText());
        }
    }
}
