package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.TestTime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Step Functions retries a Task, so every create step must leave the same resources whether it
 * runs once or three times — also when the Lambda died after AWS had accepted the create.
 */
class CreateStepsIdempotencyTest {
    LocalCloud cloud;
    Handlers handlers;
    JsonNode state;

    @BeforeEach
    void startRun() throws IOException {
        cloud = new LocalCloud(TestTime.START);
        handlers = new Handlers(cloud);
        state = handlers.start(Files.readString(Path.of("examples/quickstart.json")), "quickstart");
    }

    @AfterEach
    void stop() {
        cloud.close();
    }

    long count(String prefix) {
        return cloud.inventory().stream().filter(r -> r.startsWith(prefix)).count();
    }

    /** Three invocations; with {@code timeout} the AWS call behind the first one succeeds but its answer is lost. */
    void threeTimes(String function, String serviceOperation, boolean timeout) {
        if (timeout) {
            cloud.faults().timeoutAfter(serviceOperation);
        }
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                handlers.invoke(function, state);
            } catch (RuntimeException lost) {
                assertThat(timeout)
                        .as("only the simulated timeout may fail an attempt: " + lost)
                        .isTrue();
            }
            if (timeout) {
                cloud.faults().clear();
            }
        }
    }

    void clusterActive() {
        threeTimes("CreateCluster", "cloudcontrol:CreateResource", false);
        cloud.clock().advance(Duration.ofSeconds(15));
        threeTimes("CheckCluster", "eks:CreateCluster", false);
        cloud.clock().advance(Duration.ofMinutes(15));
    }

    @ParameterizedTest(name = "lost answer: {0}")
    @ValueSource(booleans = {false, true})
    void createClusterMakesOneLogGroupThenCheckClusterOneCluster(boolean timeout) {
        threeTimes("CreateCluster", "cloudcontrol:CreateResource", timeout);
        assertThat(count("logs:log-group/")).isEqualTo(1);
        assertThat(count("eks:cluster/")).isZero(); // not before its log group exists

        cloud.clock().advance(Duration.ofSeconds(15));
        threeTimes("CheckCluster", "eks:CreateCluster", timeout);
        assertThat(count("eks:cluster/")).isEqualTo(1);
        assertThat(count("logs:log-group/")).isEqualTo(1);
        assertThat(count("ec2:launch-template/")).as("the system node group's").isEqualTo(1);
    }

    @ParameterizedTest(name = "lost answer: {0}")
    @ValueSource(booleans = {false, true})
    void createNodegroupMakesOneLaunchTemplateThenCheckNodegroupOneNodegroup(boolean timeout) {
        clusterActive();
        threeTimes("CreateNodegroup", "cloudcontrol:CreateResource", timeout);
        assertThat(count("ec2:launch-template/"))
                .as("the system and the workers' node groups'")
                .isEqualTo(2);
        assertThat(count("eks:nodegroup/")).as("the system node group").isEqualTo(1);

        cloud.clock().advance(Duration.ofSeconds(15));
        threeTimes("CheckNodegroup", "eks:CreateNodegroup", timeout);
        assertThat(count("eks:nodegroup/"))
                .as("the system and the workers' node groups")
                .isEqualTo(2);
        assertThat(count("ec2:launch-template/")).isEqualTo(2);
    }

    @ParameterizedTest(name = "lost answer: {0}")
    @ValueSource(booleans = {false, true})
    void createNodegroupMakesOneSystemNodegroup(boolean timeout) {
        clusterActive();
        threeTimes("CreateNodegroup", "eks:CreateNodegroup", timeout);
        assertThat(cloud.eks()
                        .listNodegroups(r -> r.clusterName("tp-quickstart-eks"))
                        .nodegroups())
                .containsExactly("tp-quickstart-system");
        assertThat(count("ec2:launch-template/")).isEqualTo(2);
    }

    @ParameterizedTest(name = "lost answer: {0}")
    @ValueSource(booleans = {false, true})
    void createVolumeMakesOneFileSystem(boolean timeout) {
        threeTimes("CreateVolume", "efs:CreateFileSystem", timeout);
        assertThat(count("efs:file-system/")).isEqualTo(1);
    }

    @ParameterizedTest(name = "lost answer: {0}")
    @ValueSource(booleans = {false, true})
    void checkVolumeMakesOneMountTargetPerSubnet(boolean timeout) {
        clusterActive();
        threeTimes("CreateVolume", "efs:CreateFileSystem", false);
        cloud.clock().advance(Duration.ofMinutes(2));
        threeTimes("CheckVolume", "efs:CreateMountTarget", timeout);
        assertThat(count("efs:mount-target/"))
                .isEqualTo(cloud.clients().settings().network().subnetIds().size());
    }

    @ParameterizedTest(name = "lost answer: {0}")
    @ValueSource(booleans = {false, true})
    void configureClusterInstallsEachAddOnOnce(boolean timeout) {
        clusterActive();
        threeTimes("ConfigureCluster", "eks:CreateAddon", timeout);
        assertThat(cloud.eks()
                        .listAddons(r -> r.clusterName("tp-quickstart-eks"))
                        .addons())
                .containsExactlyInAnyOrder("eks-pod-identity-agent", "aws-efs-csi-driver");
        // Tagged with the run (and so in its inventory), as the IAM policies' aws:ResourceTag conditions need.
        assertThat(count("eks:addon/")).isEqualTo(2);
    }
}
