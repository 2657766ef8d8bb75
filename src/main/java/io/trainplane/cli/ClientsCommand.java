package io.trainplane.cli;

/**
 * A command that talks to AWS or reads the local store: the command line hands it its clients
 * ({@link Main#commandLine(CliClients)}), which is how tests give it endpoints of their own.
 */
abstract class ClientsCommand {
    CliClients clients;

    final void clients(CliClients clients) {
        this.clients = clients;
    }
}
