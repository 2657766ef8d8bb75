package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.Locale;

/**
 * A controller creating a pod for its workload (a Job, a DaemonSet, a PyTorchJob, an MPIJob): when
 * the API server refuses it (403: Pod Security Admission, {@link PodSecurityAdmission}) the
 * controller writes a FailedCreate warning on its workload, "Error creating: …", as the Job
 * controller does (pkg/controller/controller_utils.go, FailedCreatePodReason), and tries again at
 * its next pass.
 */
final class PodCreations {
    private PodCreations() {}

    /** Creates {@code pod} for {@code owner}; false, with the owner's FailedCreate event, when refused. */
    static boolean create(KubernetesClient client, HasMetadata owner, Pod pod, Instant now) {
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .resource(pod)
                    .create();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 403) {
                throw e;
            }
            String message = "Error creating: "
                    + (e.getStatus() != null && e.getStatus().getMessage() != null
                            ? e.getStatus().getMessage()
                            : e.getMessage());
            String ns = owner.getMetadata().getNamespace();
            client.v1()
                    .events()
                    .inNamespace(ns)
                    .resource(new EventBuilder()
                            .withNewMetadata()
                            .withName(owner.getMetadata().getName() + ".failedcreate."
                                    + Integer.toHexString(message.hashCode()))
                            .withNamespace(ns)
                            .endMetadata()
                            .withNewInvolvedObject()
                            .withKind(owner.getKind())
                            .withApiVersion(owner.getApiVersion())
                            .withName(owner.getMetadata().getName())
                            .withNamespace(ns)
                            .withUid(owner.getMetadata().getUid())
                            .endInvolvedObject()
                            .withType("Warning")
                            .withReason("FailedCreate")
                            .withMessage(message)
                            .withNewSource()
                            .withComponent(owner.getKind().toLowerCase(Locale.ROOT) + "-controller")
                            .endSource()
                            .withFirstTimestamp(now.toString())
                            .withLastTimestamp(now.toString())
                            .withCount(1)
                            .build())
                    .createOr(existing -> existing.update());
            return false;
        }
    }
}
