package io.trainplane.cli;

import io.trainplane.local.LocalStore;
import io.trainplane.runs.RunStore;
import java.nio.file.Path;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Where the run store is: a deployed stack (its RunsTableName output), a table named directly,
 * or the local store that {@code trainplane run} writes.
 */
final class TableOptions {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    static final class Target {
        @Option(
                names = "--stack",
                paramLabel = "NAME",
                description = "the deployed Trainplane stack (its RunsTableName output)")
        String stack;

        @Option(names = "--table", paramLabel = "NAME", description = "the DynamoDB table of the runs")
        String table;

        @Option(
                names = "--local",
                description = "the local store of 'trainplane run' ($TRAINPLANE_HOME, else .trainplane/)")
        boolean local;

        @Option(
                names = "--store",
                paramLabel = "DIR",
                description = "the local store in DIR (as 'trainplane run --store DIR')")
        Path store;
    }

    /** The run store, and what to call it in messages; close it after use (a local store is a database). */
    record Source(RunStore store, String where, String stack, LocalStore local) implements AutoCloseable {
        boolean isLocal() {
            return local != null;
        }

        @Override
        public void close() {
            if (local != null) {
                local.close();
            }
        }
    }

    boolean isLocal() {
        return target.local || target.store != null;
    }

    String stack() {
        return target.stack;
    }

    String tableName(CliClients clients) {
        return target.table != null
                ? target.table
                : StackOutputs.output(clients.cloudFormation(), target.stack, StackOutputs.RUNS_TABLE);
    }

    Source open(CliClients clients) {
        if (isLocal()) {
            Path dir = LocalStore.dir(target.store, clients.environment());
            LocalStore local = LocalStore.openExisting(dir)
                    .orElseThrow(() -> new NotFoundException("no local store in " + dir
                            + ": 'trainplane run SPEC' writes one there (or name another with --store DIR" + " or $"
                            + LocalStore.HOME_VARIABLE + ")"));
            return new Source(
                    new RunStore(local.client(), LocalStore.tableName(), clients.clock()),
                    "the local store " + dir,
                    null,
                    local);
        }
        String where = target.stack != null ? "stack " + target.stack : "table " + target.table;
        return new Source(
                new RunStore(clients.dynamoDb(), tableName(clients), clients.clock()), where, target.stack, null);
    }
}
