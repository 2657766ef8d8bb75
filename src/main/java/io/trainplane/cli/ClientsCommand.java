package io.trainplane.cli;

import io.trainplane.spec.KubernetesVersions;
import java.time.LocalDate;

/**
 * A command that talks to AWS, reads the local store or needs the time: the command line hands it
 * its clients ({@link Main#commandLine(CliClients)}), which is how tests give it endpoints and a
 * clock of their own.
 */
abstract class ClientsCommand {
    CliClients clients;

    final void clients(CliClients clients) {
        this.clients = clients;
    }

    /** The UTC day of the clients' clock: the day a run started now starts, which a spec is checked for. */
    final LocalDate today() {
        return KubernetesVersions.day(clients.clock().instant());
    }
}
