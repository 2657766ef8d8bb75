package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.aws.Settings;
import io.trainplane.clients.Clients;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.sim.SimulatedCloudControl;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The wiring keeps the cold start: building a function asks its clients for no SDK client but
 * the run store's, and an invocation asks only for those its path uses (on AWS each is built on
 * first use).
 */
class StepWiringTest {
    /** What building a function may ask its clients for: the run store's client, settings, clock. */
    static final Set<String> RUN_STORE = Set.of("settings", "clock", "dynamoDb");

    @Test
    void buildingAFunctionAsksItsClientsForTheRunStoresClientOnly() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            for (LambdaFunction function : Pipeline.FUNCTIONS) {
                AskedClients clients = new AskedClients(cloud.clients());
                function.handler(clients);
                assertThat(clients.asked)
                        .as(function.name())
                        .isSubsetOf(RUN_STORE)
                        .contains("dynamoDb");
            }
        }
    }

    @Test
    void aCheckClusterThatFindsTheLogGroupStillCreatingAsksForCloudControlOnlyThenForEks() {
        try (StartedRun run = new StartedRun("wiring-check-cluster")) {
            StepWiring.createCluster(run.cloud.clients()).run(run.state);
            AskedClients clients = new AskedClients(run.cloud.clients());

            StepWiring.checkCluster(clients).run(run.state);
            assertThat(clients.asked)
                    .doesNotContain("eks", "efs", "events", "clusters", "sfn")
                    .contains("cloudControl");

            run.advance(SimulatedCloudControl.OPERATION);
            StepWiring.checkCluster(clients).run(run.state);
            assertThat(clients.asked).contains("eks").doesNotContain("efs", "events", "clusters", "sfn");
        }
    }

    @Test
    void aCheckVolumeThatFindsTheFileSystemStillCreatingAsksForEfsOnly() {
        try (StartedRun run = new StartedRun("wiring-check-volume")) {
            StepWiring.createVolume(run.cloud.clients()).run(run.state);
            AskedClients clients = new AskedClients(run.cloud.clients());

            StepWiring.checkVolume(clients).run(run.state);

            assertThat(clients.asked)
                    .contains("efs")
                    .doesNotContain("eks", "cloudControl", "events", "clusters", "sfn");
        }
    }

    @Test
    void aKubernetesStepAsksForTheClustersWhenItRunsNotWhenItIsBuilt() {
        try (StartedRun run = new StartedRun("wiring-check-job")) {
            AskedClients clients = new AskedClients(run.cloud.clients());
            Step step = StepWiring.checkJob(clients);
            assertThat(clients.asked).doesNotContain("clusters");

            // The run's cluster was never created: EKS does not know it.
            assertThatThrownBy(() -> step.run(((ObjectNode) run.state.deepCopy())
                            .put("jobName", run.names().evaluationJob())
                            .put("purpose", "evaluation")))
                    .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                            .isEqualTo(FailureReason.ClusterNotFound));
            assertThat(clients.asked).contains("clusters");
        }
    }

    /** The local cloud's clients, each getter asked for recorded by name. */
    static final class AskedClients implements Clients {
        final List<String> asked = new CopyOnWriteArrayList<>();
        private final Clients delegate;

        AskedClients(Clients delegate) {
            this.delegate = delegate;
        }

        private <T> T ask(String name, T value) {
            asked.add(name);
            return value;
        }

        @Override
        public Settings settings() {
            return ask("settings", delegate.settings());
        }

        @Override
        public Clock clock() {
            return ask("clock", delegate.clock());
        }

        @Override
        public DynamoDbClient dynamoDb() {
            return ask("dynamoDb", delegate.dynamoDb());
        }

        @Override
        public EksClient eks() {
            return ask("eks", delegate.eks());
        }

        @Override
        public EfsClient efs() {
            return ask("efs", delegate.efs());
        }

        @Override
        public software.amazon.awssdk.services.s3.S3Client s3() {
            return ask("s3", delegate.s3());
        }

        @Override
        public software.amazon.awssdk.services.fsx.FSxClient fsx() {
            return ask("fsx", delegate.fsx());
        }

        @Override
        public io.trainplane.aws.catalog.InstanceCatalog instanceCatalog() {
            return ask("ec2", delegate.instanceCatalog());
        }

        @Override
        public io.trainplane.aws.fsx.LustreFileSystems lustreFileSystems() {
            return ask("fsx", delegate.lustreFileSystems());
        }

        @Override
        public CloudControlClient cloudControl() {
            return ask("cloudControl", delegate.cloudControl());
        }

        @Override
        public CloudWatchEventsClient events() {
            return ask("events", delegate.events());
        }

        @Override
        public ClusterAccess clusters() {
            return ask("clusters", delegate.clusters());
        }

        @Override
        public SfnClient sfn() {
            return ask("sfn", delegate.sfn());
        }

        @Override
        public String cleanupStateMachineArn() {
            return ask("cleanupStateMachineArn", delegate.cleanupStateMachineArn());
        }

        @Override
        public String trainingPipelineArn() {
            return ask("trainingPipelineArn", delegate.trainingPipelineArn());
        }
    }
}
