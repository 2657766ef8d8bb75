package io.trainplane.cli;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Where the run store is: a deployed stack (its RunsTableName output) or a table named directly. */
final class TableOptions {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    static final class Target {
        @Option(names = "--stack", paramLabel = "NAME", description = "the deployed Trainplane stack (its RunsTableName output)")
        String stack;

        @Option(names = "--table", paramLabel = "NAME", description = "the DynamoDB table of the runs")
        String table;
    }

    String tableName(CliClients clients) {
        return target.table != null ? target.table
                : StackOutputs.output(clients.cloudFormation(), target.stack, StackOutputs.RUNS_TABLE);
    }
}
