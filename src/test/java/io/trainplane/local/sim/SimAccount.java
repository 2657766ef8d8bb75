package io.trainplane.local.sim;

import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.iam.Authorizer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;

/** A simulated account for tests: one clock, one call log, one fault plan, the services on them. */
final class SimAccount {
    static final Instant START = Instant.parse("2025-01-01T00:00:00Z");
    static final String ENDPOINT = "http://127.0.0.1:6443";
    static final List<String> SUBNETS = List.of("subnet-0aaa", "subnet-0bbb");
    static final String RUN_TAG = "trainplane:run-id";

    final SimulatedClock clock = new SimulatedClock(START);
    final CallLog calls = new CallLog();
    final FaultPlan faults = new FaultPlan();
    final SimulatedNetwork network = SimulatedNetwork.stack();
    final SimulatedCapacity capacity = SimulatedCapacity.stack(START);
    final SimulatedCloudControl cloudControl =
            new SimulatedCloudControl(calls, clock, faults, Authorizer.ALLOW_ALL).reading(network, capacity);
    final SimulatedEks eks = new SimulatedEks(calls, clock, faults, Authorizer.ALLOW_ALL, ENDPOINT)
            .sharing(network)
            .launchingInto(capacity, cloudControl);
    final SimulatedEfs efs = new SimulatedEfs(calls, clock, faults, Authorizer.ALLOW_ALL, network);
    final SimulatedEventBus bus = new SimulatedEventBus(calls, clock, faults, Authorizer.ALLOW_ALL);

    void advance(Duration d) {
        clock.advance(d);
    }

    /** Moves the clock to {@code elapsed} after {@link #START}. */
    void at(Duration elapsed) {
        clock.advance(Duration.between(clock.instant(), START.plus(elapsed)));
    }

    int count(String serviceOperation) {
        return calls.counts().getOrDefault(serviceOperation, 0);
    }

    static CreateClusterRequest cluster(String name, String token, String runId) {
        return CreateClusterRequest.builder()
                .name(name)
                .version("1.31")
                .roleArn("arn:aws:iam::000000000000:role/trainplane-cluster")
                .resourcesVpcConfig(v -> v.subnetIds(SUBNETS).securityGroupIds("sg-0control"))
                .accessConfig(a -> a.authenticationMode("API_AND_CONFIG_MAP"))
                .logging(l ->
                        l.clusterLogging(s -> s.typesWithStrings("api", "audit").enabled(true)))
                .clientRequestToken(token)
                .tags(runId == null ? Map.of() : Map.of(RUN_TAG, runId))
                .build();
    }

    static CreateNodegroupRequest nodegroup(String cluster, String name, String token, String runId) {
        return CreateNodegroupRequest.builder()
                .clusterName(cluster)
                .nodegroupName(name)
                .nodeRole("arn:aws:iam::000000000000:role/trainplane-node")
                .subnets(SUBNETS)
                .instanceTypes("g5.12xlarge")
                .scalingConfig(s -> s.minSize(2).maxSize(2).desiredSize(2))
                .clientRequestToken(token)
                .tags(runId == null ? Map.of() : Map.of(RUN_TAG, runId))
                .build();
    }
}
