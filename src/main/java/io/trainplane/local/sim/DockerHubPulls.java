package io.trainplane.local.sim;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * Docker Hub's pull rate limit on the account's nodes: "Unauthenticated users: 10 per IPv4 address
 * or IPv6 /64 subnet" an hour (https://docs.docker.com/docker-hub/usage/pulls/). Every node of the
 * stack's VPC reaches the internet through its NAT gateway, one address, so all the account's
 * anonymous pulls count together; the eleventh within an hour fails with Docker Hub's 429, as
 * containerd reports it. A pull counts when a node fetches an image it does not have (the kubelet
 * asks nothing of the registry for an image on the node, imagePullPolicy IfNotPresent). Where the
 * twin is stricter than a kubelet: it does not pull again once the hour has passed (the run's
 * pending timeout, 15 minutes, ends it first).
 */
public final class DockerHubPulls implements ImagePulls.Registries {
    static final int PULLS_PER_HOUR = 10;
    static final Duration WINDOW = Duration.ofHours(1);

    private final Clock clock;
    private final Deque<Instant> pulls = new ArrayDeque<>();

    public DockerHubPulls(Clock clock) {
        this.clock = clock;
    }

    /** Whether {@code image} is Docker Hub's: no registry host before its first '/', or docker.io. */
    static boolean dockerHub(String image) {
        int slash = image.indexOf('/');
        String first = slash < 0 ? "" : image.substring(0, slash);
        return slash < 0
                || first.equals("docker.io")
                || !(first.contains(".") || first.contains(":") || first.equals("localhost"));
    }

    @Override
    public synchronized Optional<String> refusal(String nodeRoleArn, String node, String image) {
        if (!dockerHub(image)) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        while (!pulls.isEmpty() && !pulls.peekFirst().plus(WINDOW).isAfter(now)) {
            pulls.removeFirst();
        }
        if (pulls.size() >= PULLS_PER_HOUR) {
            String reference = image.startsWith("docker.io/") ? image : "docker.io/" + image;
            return Optional.of("failed to pull and unpack image \"" + reference + "\": 429 Too Many Requests -"
                    + " Server message: toomanyrequests: You have reached your unauthenticated pull rate limit."
                    + " https://www.docker.com/increase-rate-limit");
        }
        pulls.addLast(now);
        return Optional.empty();
    }
}
