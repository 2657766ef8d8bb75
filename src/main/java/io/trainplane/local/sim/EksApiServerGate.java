package io.trainplane.local.sim;

import io.trainplane.local.iam.AccessKeys;
import io.trainplane.local.sim.ClusterAuthorization.Allowed;
import io.trainplane.local.sim.ClusterAuthorization.Forbidden;
import io.trainplane.local.sim.ClusterAuthorization.Unauthenticated;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The EKS side of the simulated Kubernetes API server: each request's bearer token is verified
 * ({@link EksTokenVerifier}) and the principal's access to the cluster decided by the cluster's
 * access entries ({@link ClusterAuthorization}). EKS answers a refused token or a principal
 * without an entry with a bare 401 "Unauthorized"
 * (https://repost.aws/knowledge-center/eks-api-server-unauthorized-error); the reason goes to
 * {@link #log()}, as EKS writes it to the cluster's authenticator log.
 *
 * <p>Each cluster has its own API server; {@link #at} gives the gate of the server at an endpoint,
 * all of them writing to one log. The cluster a request is for is the one its token was signed
 * for, among the clusters EKS serves at that endpoint.
 */
public final class EksApiServerGate implements SimulatedKubernetes.Gate {
    private final SimulatedEks eks;
    private final String endpoint;
    private final EksTokenVerifier verifier;
    private final List<String> log;

    public EksApiServerGate(SimulatedEks eks, AccessKeys keys, Clock clock, String endpoint) {
        this(eks, new EksTokenVerifier(keys, clock), endpoint, new ArrayList<>());
    }

    /** The gate of no server yet: {@link #at} gives each server's. */
    public EksApiServerGate(SimulatedEks eks, AccessKeys keys, Clock clock) {
        this(eks, keys, clock, null);
    }

    private EksApiServerGate(SimulatedEks eks, EksTokenVerifier verifier, String endpoint, List<String> log) {
        this.eks = eks;
        this.endpoint = endpoint;
        this.verifier = verifier;
        this.log = log;
    }

    /** The gate of the API server at {@code endpoint}, sharing this one's log. */
    public EksApiServerGate at(String endpoint) {
        return new EksApiServerGate(eks, verifier, endpoint, log);
    }

    @Override
    public SimulatedKubernetes.Refusal check(String method, String path, String authorization) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return unauthorized(method, path, "no bearer token");
        }
        EksTokenVerifier.Identity id;
        try {
            id = verifier.verify(
                    authorization.substring("Bearer ".length()).trim(),
                    endpoint == null ? List.of() : eks.accessEntries().clustersServedAt(endpoint));
        } catch (EksTokenVerifier.Refused e) {
            return unauthorized(method, path, e.getMessage());
        }
        return switch (eks.accessEntries()
                .kubernetesAccess(id.cluster(), id.principal().arn(), method, path)) {
            case Allowed allowed -> null;
            case Unauthenticated refused -> unauthorized(method, path, refused.reason());
            case Forbidden forbidden -> {
                record(403, method, path, forbidden.reason());
                yield new SimulatedKubernetes.Refusal(
                        403,
                        "Forbidden",
                        "forbidden: User \"" + forbidden.username() + "\" cannot " + method + " " + path + ": "
                                + forbidden.reason());
            }
        };
    }

    /** Why requests were refused, oldest first: {@code 401 GET /api/v1/namespaces/x: no access entry for … on cluster …}. */
    public List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    private SimulatedKubernetes.Refusal unauthorized(String method, String path, String reason) {
        record(401, method, path, reason);
        return new SimulatedKubernetes.Refusal(401, "Unauthorized", "Unauthorized");
    }

    private void record(int code, String method, String path, String reason) {
        synchronized (log) {
            log.add(code + " " + method + " " + path + ": " + reason);
        }
    }
}
