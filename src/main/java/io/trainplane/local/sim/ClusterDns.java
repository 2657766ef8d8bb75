package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Service DNS names on a cluster: a pod's resolver asks the kube-dns Service, which only CoreDNS
 * pods answer (https://kubernetes.io/docs/concepts/services-networking/dns-pod-service/,
 * https://docs.aws.amazon.com/eks/latest/userguide/managing-coredns.html). A torchrun whose c10d
 * rendezvous endpoint is such a name, on a cluster where no CoreDNS pod runs, cannot resolve it:
 * c10d warns that the address cannot be retrieved and torchrun gives up once the rendezvous read
 * timeout (60 s by default, https://pytorch.org/docs/stable/elastic/rendezvous.html) has passed,
 * exit code 1.
 */
final class ClusterDns {
    static final Duration RENDEZVOUS_TIMEOUT = Duration.ofSeconds(60);
    private static final DateTimeFormatter GLOG =
            DateTimeFormatter.ofPattern("MMdd HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

    private ClusterDns() {}

    /** Whether a CoreDNS pod runs: the kube-dns Service has an endpoint. */
    static boolean answers(ClusterReads reads) {
        return reads.podsLabeled("k8s-app", "kube-dns").stream()
                .filter(p -> BareCluster.SYSTEM.equals(p.getMetadata().getNamespace()))
                .anyMatch(p ->
                        p.getStatus() != null && "Running".equals(p.getStatus().getPhase()));
    }

    /**
     * The host:port of the pod's c10d rendezvous when its host is a DNS name (torchrun's
     * {@code --rdzv-endpoint}, or {@code PET_RDZV_ENDPOINT} as the training operator sets it).
     */
    static Optional<String> rendezvous(Pod pod) {
        List<String> candidates = new ArrayList<>();
        for (Container c : pod.getSpec().getContainers()) {
            if (c.getCommand() != null) {
                candidates.addAll(c.getCommand());
            }
            if (c.getArgs() != null) {
                candidates.addAll(c.getArgs());
            }
            if (c.getEnv() != null) {
                for (EnvVar e : c.getEnv()) {
                    if ("PET_RDZV_ENDPOINT".equals(e.getName()) && e.getValue() != null) {
                        candidates.add("--rdzv-endpoint=" + e.getValue());
                    }
                }
            }
        }
        return candidates.stream()
                .flatMap(arg -> arg.lines())
                .flatMap(line -> List.of(line.split("\\s+")).stream())
                .filter(arg -> arg.startsWith("--rdzv-endpoint=") || arg.startsWith("--rdzv_endpoint="))
                .map(arg -> arg.substring(arg.indexOf('=') + 1))
                .filter(endpoint -> endpoint.contains(".") && !endpoint.matches("[0-9.:]+"))
                .findFirst();
    }

    /** What the training pod's torchrun writes when the rendezvous host does not resolve: its log tail. */
    static String unresolved(String endpoint, Instant at) {
        int colon = endpoint.lastIndexOf(':');
        String host = colon < 0 ? endpoint : endpoint.substring(0, colon);
        String port = colon < 0 ? "29400" : endpoint.substring(colon + 1);
        // c10d's socket.cpp warning (e.g. pytorch/pytorch#150532), then the rendezvous backend's error.
        String line = "[W" + GLOG.format(at) + " socket.cpp:755] [c10d] The IPv4 network addresses of (" + host + ", "
                + port + ") cannot be retrieved (gai error: -2 - Name or service not known).";
        return line + "\n" + line.replace("IPv4", "IPv6") + "\n"
                + "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d"
                + " store has failed. See inner exception for details.";
    }

    /** The log of a pod that failed this way: its termination message, which is that log's tail. */
    static Optional<String> log(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getContainerStatuses().stream()
                .map(s -> s.getState() == null ? null : s.getState().getTerminated())
                .filter(t ->
                        t != null && t.getMessage() != null && t.getMessage().contains("[c10d]"))
                .map(t -> t.getMessage())
                .findFirst();
    }
}
