package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;

/**
 * An event about a pod as the scheduler or the kubelet writes one (involvedObject the pod, the
 * reporting component, first and last timestamp, count 1): what {@code kubectl describe pod} and
 * the run's diagnosis read.
 */
final class PodEvents {
    private PodEvents() {}

    /**
     * {@code component} is the writer ({@code default-scheduler}, {@code kubelet}); a kubelet's
     * event also names its node ({@code host} null for the scheduler's).
     */
    static Event of(
            Pod pod,
            String name,
            String type,
            String reason,
            String message,
            String component,
            String host,
            Instant at) {
        String ns = pod.getMetadata().getNamespace();
        EventBuilder event = new EventBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewInvolvedObject()
                .withKind("Pod")
                .withApiVersion("v1")
                .withName(pod.getMetadata().getName())
                .withNamespace(ns)
                .withUid(pod.getMetadata().getUid())
                .endInvolvedObject()
                .withType(type)
                .withReason(reason)
                .withMessage(message)
                .withNewSource()
                .withComponent(component)
                .withHost(host)
                .endSource()
                .withReportingComponent(component)
                .withFirstTimestamp(at.toString())
                .withLastTimestamp(at.toString())
                .withCount(1);
        if (host != null) {
            event.withReportingInstance(host);
        }
        return event.build();
    }
}
