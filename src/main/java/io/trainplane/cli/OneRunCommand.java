package io.trainplane.cli;

import io.trainplane.runs.RunNotFoundException;
import io.trainplane.runs.RunRecord;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * A command about one run of the run store (status, watch, logs, cancel): the run id, and where
 * the store is (each command's {@link TableOptions}: the stack's table, a table by name, or the local store).
 */
abstract class OneRunCommand extends ClientsCommand {
    @Spec
    CommandSpec command;

    @Parameters(index = "0", paramLabel = "RUN", description = "the run id")
    String runId;

    /** The run's record; {@link NotFoundException} (exit 4) naming where it was looked for. */
    RunRecord find(TableOptions.Source source) {
        try {
            return source.store().get(runId);
        } catch (RunNotFoundException e) {
            throw new NotFoundException("no run " + runId + " in " + source.where()
                    + (source.isLocal() ? " (a local run is stored there when 'trainplane run' ends)" : ""));
        }
    }
}
