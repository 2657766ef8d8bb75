package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.TrainingSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The training as a Kubeflow {@code kubeflow.org/v1} PyTorchJob: one Master and workers − 1
 * Workers with the same pod template as the Indexed Job's. The training operator sets torchrun's
 * {@code PET_*} variables (nodes, processes per node, rendezvous) from {@code nprocPerNode} and the
 * {@code elasticPolicy}; the container must be called {@code pytorch}.
 */
final class PyTorchJobManifest {
    static final String API_VERSION = "kubeflow.org/v1";
    static final String KIND = "PyTorchJob";
    static final String CONTAINER = "pytorch";
    static final String RESTART_POLICY = "ExitCode";

    private final WorkloadManifests manifests;
    private final RunSpec spec;

    PyTorchJobManifest(WorkloadManifests manifests, RunSpec spec) {
        this.manifests = manifests;
        this.spec = spec;
    }

    GenericKubernetesResource build() {
        TrainingSpec t = spec.training();
        Map<String, Object> replicas = new LinkedHashMap<>();
        // The Master alone syncs the checkpoints: every replica sees the same shared volume.
        replicas.put("Master", replica(1, true));
        if (t.workers() > 1) {
            replicas.put("Worker", replica(t.workers() - 1, false));
        }
        // Several nodes meet in torchrun's c10d rendezvous (elasticPolicy). One node has no one to meet,
        // and the operator's webhook refuses an elasticPolicy without a Worker replica
        // (kubeflow/trainer v1.9.4, pkg/webhooks/pytorch/pytorchjob_webhook.go, validateSpec).
        Map<String, Object> elastic = null;
        if (t.workers() > 1) {
            elastic = new LinkedHashMap<>();
            elastic.put("rdzvBackend", "c10d");
            elastic.put("minReplicas", t.workers());
            elastic.put("maxReplicas", t.workers());
            elastic.put("maxRestarts", t.maxRestarts());
        }
        Map<String, Object> runPolicy = new LinkedHashMap<>();
        runPolicy.put("activeDeadlineSeconds", t.timeoutMinutes() * 60L);
        // Pods stay after the end so their status and logs can be read; teardown deletes them.
        runPolicy.put("cleanPodPolicy", "None");
        runPolicy.put("backoffLimit", t.maxRestarts());
        Map<String, Object> jobSpec = new LinkedHashMap<>();
        jobSpec.put("nprocPerNode", Integer.toString(t.procsPerWorker()));
        if (elastic != null) {
            jobSpec.put("elasticPolicy", elastic);
        }
        jobSpec.put("runPolicy", runPolicy);
        jobSpec.put("pytorchReplicaSpecs", replicas);
        String name = spec.names().trainingJob();
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION)
                .withKind(KIND)
                .withNewMetadata()
                .withName(name)
                .withNamespace(spec.names().namespace())
                .withLabels(manifests.labels("training"))
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", jobSpec))
                .build();
    }

    private Map<String, Object> replica(int count, boolean syncsCheckpoints) {
        // The operator gives torchrun nodes, processes and the rendezvous (PET_*): no flags here.
        List<String> command = manifests.trainCommand(List.of("torchrun"));
        Container trainer = manifests.container(
                CONTAINER, TermExit.wrap(command), manifests.trainingResources(), manifests.trainingEnv(null));
        PodSpec pod = manifests.trainingPodSpec(trainer, null);
        if (syncsCheckpoints) {
            manifests.withCheckpointSync(pod, false);
        }
        manifests.withSecrets(pod, spec.workload().train());
        // The replica's restartPolicy is the one that counts; the template's would be overridden.
        pod.setRestartPolicy(null);
        var template = new PodTemplateSpecBuilder()
                .withNewMetadata()
                .withLabels(manifests.labels("training"))
                .endMetadata()
                .withSpec(PodSecurity.confined(pod))
                .build();
        Map<String, Object> replica = new LinkedHashMap<>();
        replica.put("replicas", count);
        // ExitCode: "1-127: permanent error, do not restart; 128-255: retryable error, will restart
        // the pod" (https://www.kubeflow.org/docs/components/trainer/legacy-v1/user-guides/pytorch/,
        // RestartPolicyExitCode in the operator's pkg/apis/kubeflow.org/v1/common_types.go). A crash
        // of the user's code fails the PyTorchJob after one attempt; a pod lost with its node (deleted
        // by the pod garbage collector, so no exit code) is created again for its replica index and
        // joins torchrun's c10d rendezvous, which the survivors wait in (elasticPolicy.maxRestarts).
        replica.put("restartPolicy", RESTART_POLICY);
        replica.put("template", Serialization.jsonMapper().convertValue(template, Map.class));
        return replica;
    }
}
