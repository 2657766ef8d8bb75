package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.trainplane.aws.eks.EksAddons;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.DevicePluginManifests;
import io.trainplane.kubernetes.TrainingOperator;
import io.trainplane.local.sim.SimulatedEks;
import io.trainplane.local.sim.SimulatedKubernetes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * ConfigureCluster's polls on an ACTIVE cluster of the simulated account: the add-ons installed
 * once (the EFS CSI driver with its Pod Identity for the stack's role) and waited for; the NVIDIA
 * device plugin only on GPU nodes (a CPU cluster's Kubernetes API is not reached).
 */
class ConfigureClusterStepTest {
    static Supplier<EksAddons> addons(StartedRun run) {
        return () -> new EksAddons(run.cloud.eks());
    }

    @Test
    void onCpuNodesItInstallsTheAddOnsOnceAndWaitsForThemWithoutReachingKubernetes() {
        try (StartedRun run = new StartedRun("configure-cpu")) {
            run.clusterActive();
            ClusterAccess unreachable = cluster -> {
                throw new AssertionError("the Kubernetes API of " + cluster + " was reached");
            };
            ConfigureClusterStep step = new ConfigureClusterStep(addons(run), unreachable, run.settings);

            JsonNode installing = step.run(run.state);
            assertThat(installing.path("done").asBoolean()).isFalse();
            assertThat(installing.path("waitSeconds").asInt()).isEqualTo(ConfigureClusterStep.WAIT_SECONDS);
            assertThat(run.calls("eks:CreateAddon"))
                    .as("the Pod Identity agent and the EFS CSI driver")
                    .isEqualTo(2);
            assertThat(run.cloud.eks().podIdentityAssociations())
                    .singleElement()
                    .satisfies(a -> assertThat(a.roleArn())
                            .isEqualTo(run.settings.roles().efsCsiRoleArn()));

            assertThat(step.run(run.state).path("done").asBoolean()).isFalse();
            run.advance(SimulatedEks.ADDON_CREATING);
            JsonNode waiting = step.run(run.state);
            assertThat(waiting.path("done").asBoolean())
                    .as("an add-on is ACTIVE only once its pods run, and no node runs them yet")
                    .isFalse();
            assertThat(waiting.path("detail").asText()).contains("is CREATING");
            run.nodegroupsActive();
            for (int i = 0; i < 3; i++) {
                run.advance(Duration.ofSeconds(10));
                run.cloud.reconcile();
            }
            JsonNode ready = step.run(run.state);
            assertThat(ready.path("done").asBoolean()).isTrue();
            assertThat(ready.path("waitSeconds").asInt()).isZero();
            assertThat(run.calls("eks:CreateAddon")).as("installed once").isEqualTo(2);
        }
    }

    @Test
    void onGpuNodesItAlsoInstallsTheDevicePlugin() {
        try (StartedRun run = new StartedRun("gpu-single-node", "configure-gpu", spec -> spec)) {
            run.clusterActive();
            var api = run.cloud.kubernetes(run.clusterName()).admin();
            ConfigureClusterStep step = new ConfigureClusterStep(addons(run), cluster -> api, run.settings);

            step.run(run.state);

            assertThat(api.apps()
                            .daemonSets()
                            .inNamespace(DevicePluginManifests.NAMESPACE)
                            .withName(DevicePluginManifests.NAME)
                            .get())
                    .isNotNull();
            assertThat(api.apps()
                            .daemonSets()
                            .inNamespace(DevicePluginManifests.NAMESPACE)
                            .withName(DevicePluginManifests.EFA_NAME)
                            .get())
                    .as("no EFA on these nodes")
                    .isNull();
        }
    }

    @Test
    void onEfaNodesItInstallsTheEfaDevicePluginOnTheWorkersBesideNvidias() {
        try (StartedRun run = new StartedRun("multi-node-efa", "configure-efa", spec -> spec)) {
            run.clusterActive();
            var api = run.cloud.kubernetes(run.clusterName()).admin();
            ConfigureClusterStep step = new ConfigureClusterStep(addons(run), cluster -> api, run.settings);

            step.run(run.state);
            step.run(run.state); // a second poll adopts what the first created

            var daemonSets = api.apps().daemonSets().inNamespace(DevicePluginManifests.NAMESPACE);
            var efa = daemonSets.withName(DevicePluginManifests.EFA_NAME).get();
            assertThat(efa).isNotNull();
            assertThat(efa.getMetadata().getLabels()).containsEntry("trainplane/run-id", "configure-efa");
            var pod = efa.getSpec().getTemplate().getSpec();
            assertThat(pod.getContainers().getFirst().getImage()).isEqualTo(DevicePluginManifests.EFA_IMAGE);
            assertThat(pod.getNodeSelector()).containsEntry("trainplane.io/node-pool", "workers");
            assertThat(pod.getTolerations()).extracting("key").contains("nvidia.com/gpu");
            assertThat(pod.getVolumes())
                    .anySatisfy(
                            v -> assertThat(v.getHostPath().getPath()).isEqualTo("/var/lib/kubelet/device-plugins"));
            assertThat(daemonSets
                            .withName(DevicePluginManifests.NAME)
                            .get()
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getNodeSelector())
                    .containsEntry("trainplane.io/node-pool", "workers");
        }
    }

    @Test
    void laterPollsSendNoDevicePluginAndReadTheOperatorsCrdOnlyUntilItIsEstablished() {
        try (StartedRun run = new StartedRun("gpu-single-node", "configure-polls", spec -> {
            ((ObjectNode) spec.path("training")).put("launcher", "pytorchjob");
            return spec;
        })) {
            run.clusterActive();
            run.nodegroupsActive();
            SimulatedKubernetes server = run.cloud.kubernetes(run.clusterName());
            List<String> requests = new CopyOnWriteArrayList<>();
            server.guardedBy((method, path, authorization) -> {
                requests.add(method + " " + path);
                return null;
            });
            try (KubernetesClient poller = new KubernetesClientBuilder()
                    .withConfig(new ConfigBuilder()
                            .withMasterUrl(server.endpoint())
                            .withOauthToken("poller")
                            .withHttp2Disable(true)
                            .build())
                    .build()) {
                ConfigureClusterStep step = new ConfigureClusterStep(addons(run), cluster -> poller, run.settings);
                ObjectNode state = run.state.deepCopy();

                JsonNode look = step.run(state);
                assertThat(requests)
                        .as("the first poll creates the device plugin")
                        .anyMatch(r -> r.startsWith("POST ") && r.contains("/daemonsets"));
                assertThat(look.path(ConfigureClusterStep.DEVICE_PLUGINS_APPLIED)
                                .asBoolean())
                        .isTrue();
                boolean established = false;
                for (int i = 0; i < 12 && !look.path("done").asBoolean(); i++) {
                    // What the state machine does: the answer goes to $.configuration, the next poll's input.
                    state.set(ConfigureClusterStep.RESULT, look);
                    established = look.path(ConfigureClusterStep.OPERATOR_CRD_ESTABLISHED)
                            .asBoolean();
                    requests.clear();
                    run.advance(Duration.ofSeconds(10));
                    run.cloud.reconcile();
                    look = step.run(state);
                    assertThat(requests)
                            .as("a later poll sends nothing")
                            .noneMatch(r -> r.startsWith("POST ") || r.startsWith("PUT ") || r.startsWith("PATCH "));
                    if (established) {
                        assertThat(requests)
                                .as("the CRD was seen Established: not read again")
                                .noneMatch(r -> r.contains("customresourcedefinitions"));
                    }
                }
                assertThat(look.path("done").asBoolean()).as(look.toString()).isTrue();
                assertThat(established)
                        .as("polls after the CRD was Established were made")
                        .isTrue();
                assertThat(look.path(ConfigureClusterStep.OPERATOR_CRD_ESTABLISHED)
                                .asBoolean())
                        .isTrue();
            }
        }
    }

    @Test
    void forAPyTorchJobItInstallsTheTrainingOperatorAndWaitsUntilItRuns() {
        try (StartedRun run = new StartedRun("configure-operator", spec -> {
            ((ObjectNode) spec.path("training")).put("launcher", "pytorchjob");
            return spec;
        })) {
            run.clusterActive();
            run.nodegroupsActive(); // the operator's pod needs a node
            var api = run.cloud.kubernetes(run.clusterName()).admin();
            ConfigureClusterStep step = new ConfigureClusterStep(addons(run), cluster -> api, run.settings);
            step.run(run.state);
            run.advance(SimulatedEks.ADDON_CREATING);

            JsonNode installed = step.run(run.state);
            assertThat(installed.path("done").asBoolean())
                    .as("neither the add-ons' pods nor the operator's run yet")
                    .isFalse();
            assertThat(api.apps()
                            .deployments()
                            .inNamespace(TrainingOperator.NAMESPACE)
                            .withName(TrainingOperator.DEPLOYMENT)
                            .get())
                    .isNotNull();

            // The operator's pod is scheduled on the system node and runs: ready within a minute.
            JsonNode look = installed;
            for (int i = 0; i < 6 && !look.path("done").asBoolean(); i++) {
                run.advance(Duration.ofSeconds(10));
                run.cloud.reconcile();
                look = step.run(run.state);
            }
            assertThat(look.path("done").asBoolean()).as(look.toString()).isTrue();
        }
    }
}
