package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.TrainingSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.kubeflow.v1.PyTorchJob;
import org.kubeflow.v1.PyTorchJobSpec;
import org.kubeflow.v1.pytorchjobspec.ElasticPolicy;
import org.kubeflow.v1.pytorchjobspec.PytorchReplicaSpecs;
import org.kubeflow.v1.pytorchjobspec.RunPolicy;

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

    PyTorchJob build() {
        TrainingSpec t = spec.training();
        Map<String, PytorchReplicaSpecs> replicas = new LinkedHashMap<>();
        // The Master alone syncs the checkpoints: every replica sees the same shared volume.
        replicas.put("Master", replica(1, true));
        if (t.workers() > 1) {
            replicas.put("Worker", replica(t.workers() - 1, false));
        }
        PyTorchJobSpec jobSpec = new PyTorchJobSpec();
        jobSpec.setNprocPerNode(Integer.toString(t.procsPerWorker()));
        // Several nodes meet in torchrun's c10d rendezvous (elasticPolicy). One node has no one to meet,
        // and the operator's webhook refuses an elasticPolicy without a Worker replica
        // (kubeflow/trainer v1.9.4, pkg/webhooks/pytorch/pytorchjob_webhook.go, validateSpec).
        if (t.workers() > 1) {
            ElasticPolicy elastic = new ElasticPolicy();
            elastic.setRdzvBackend("c10d");
            elastic.setMinReplicas(t.workers());
            elastic.setMaxReplicas(t.workers());
            elastic.setMaxRestarts(t.maxRestarts());
            jobSpec.setElasticPolicy(elastic);
        }
        RunPolicy runPolicy = new RunPolicy();
        runPolicy.setActiveDeadlineSeconds(t.timeoutMinutes() * 60L);
        // Pods stay after the end so their status and logs can be read; teardown deletes them.
        runPolicy.setCleanPodPolicy("None");
        runPolicy.setBackoffLimit(t.maxRestarts());
        // Left out rather than false: the run suspends nothing itself (the field's default).
        runPolicy.setSuspend(null);
        jobSpec.setRunPolicy(runPolicy);
        jobSpec.setPytorchReplicaSpecs(replicas);
        PyTorchJob job = new PyTorchJob();
        job.setMetadata(new ObjectMetaBuilder()
                .withName(spec.names().trainingJob())
                .withNamespace(spec.names().namespace())
                .withLabels(manifests.labels("training"))
                .build());
        job.setSpec(jobSpec);
        return job;
    }

    private PytorchReplicaSpecs replica(int count, boolean syncsCheckpoints) {
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
        PytorchReplicaSpecs replica = new PytorchReplicaSpecs();
        replica.setReplicas(count);
        // ExitCode: "1-127: permanent error, do not restart; 128-255: retryable error, will restart
        // the pod" (https://www.kubeflow.org/docs/components/trainer/legacy-v1/user-guides/pytorch/,
        // RestartPolicyExitCode in the operator's pkg/apis/kubeflow.org/v1/common_types.go). A crash
        // of the user's code fails the PyTorchJob after one attempt; a pod lost with its node (deleted
        // by the pod garbage collector, so no exit code) is created again for its replica index and
        // joins torchrun's c10d rendezvous, which the survivors wait in (elasticPolicy.maxRestarts).
        replica.setRestartPolicy(RESTART_POLICY);
        replica.setTemplate(template);
        return replica;
    }
}
