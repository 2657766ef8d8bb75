package io.trainplane.cli;

import io.trainplane.local.LocalStore;
import io.trainplane.runs.RunStore;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where the run store is: a deployed stack (its RunsTableName output) or the local store that
 * {@code trainplane run} writes; {@link WithTable} adds a table named directly, for the commands
 * that only read the store. Commands declare it as {@code @ArgGroup(exclusive = true, multiplicity
 * = "1")}, not as a mixin, whose group picocli's help would list twice.
 */
class TableOptions {
    @Option(
            names = "--stack",
            paramLabel = "NAME",
            description = "the deployed Trainplane stack (its RunsTableName output)")
    String stack;

    @Option(
            names = "--local",
            description = "the local store of 'trainplane run' ($TRAINPLANE_HOME, else .trainplane/)")
    boolean local;

    @Option(
            names = "--store",
            paramLabel = "DIR",
            description = "the local store in DIR (as 'trainplane run --store DIR')")
    Path store;

    /** Set only through {@link WithTable}'s {@code --table}. */
    String table;

    /** The store options plus {@code --table NAME}: enough to read runs, not to stop or clean one up. */
    static final class WithTable extends TableOptions {
        @Option(names = "--table", paramLabel = "NAME", description = "the DynamoDB table of the runs")
        void table(String name) {
            this.table = name;
        }
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
        return local || store != null;
    }

    String stack() {
        return stack;
    }

    String tableName(CliClients clients) {
        return table != null ? table : StackOutputs.output(clients.cloudFormation(), stack, StackOutputs.RUNS_TABLE);
    }

    Source open(CliClients clients) {
        if (isLocal()) {
            Path dir = LocalStore.dir(store, clients.environment());
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
        String where = stack != null ? "stack " + stack : "table " + table;
        return new Source(new RunStore(clients.dynamoDb(), tableName(clients), clients.clock()), where, stack, null);
    }
}
