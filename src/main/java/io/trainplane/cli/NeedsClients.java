package io.trainplane.cli;

/** A command that talks to AWS; the command line hands it its clients. */
interface NeedsClients {
    void clients(CliClients clients);
}
