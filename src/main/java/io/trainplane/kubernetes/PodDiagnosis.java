package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.trainplane.core.FailureReason;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Why a job's pods do not get anywhere, read from what the scheduler, the kubelet and the pods
 * themselves wrote: pods that cannot be scheduled (which resource, which taint), volumes that
 * cannot be mounted (no CSI driver, no reachable mount target), images that cannot be pulled,
 * containers that keep crashing (with their log tail), a rendezvous whose host name does not
 * resolve (no cluster DNS). Each diagnosis says what to fix. A pure function of the pods, their
 * events and their log tails, so it is tested without a cluster.
 *
 * <p>The texts it reads are the components' own: kube-scheduler's FailedScheduling summary
 * ("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.", "1 node(s) had untolerated taint
 * {nvidia.com/gpu: true}", kubernetes/kubernetes#116133), the kubelet's FailedMount events
 * ("MountVolume.MountDevice failed for volume \"efs-pv\" : kubernetes.io/csi: attacher.MountDevice
 * failed to create newCsiDriverClient: driver name efs.csi.aws.com not found in the list of
 * registered CSI drivers", kubernetes-sigs/aws-efs-csi-driver#284 and #323; "MountVolume.SetUp
 * failed for volume \"efs-pv\" : rpc error: code = DeadlineExceeded desc = context deadline
 * exceeded", aws-efs-csi-driver#262 and #34; "mount.nfs4: Connection timed out", aws/efs-utils#22),
 * and torch's c10d ("The IPv4 network addresses of (host, 29400) cannot be retrieved (gai error:
 * -2 - Name or service not known)", pytorch/pytorch#150532 and the warnings quoted in
 * antgroup/animate-x#15, nyu-systems/Grendel-GS#9).
 */
public final class PodDiagnosis {
    static final Set<String> IMAGE_PULL = Set.of("ImagePullBackOff", "ErrImagePull", "InvalidImageName");

    /**
     * What went wrong. {@code reason} is the terminal error's name (Unschedulable, ImagePullFailed,
     * CrashLoop); {@code pod} the pod that shows it; {@code restarted} whether its container ran
     * before (its previous log is the one to read); {@code message} says what happened.
     */
    public record Diagnosis(FailureReason reason, String message, String pod, boolean restarted) {}

    /** A pod's log tail by name; of its previous container when {@code previous}. Empty when there is none. */
    @FunctionalInterface
    public interface LogTails {
        Optional<String> tail(String pod, boolean previous);

        LogTails NONE = (pod, previous) -> Optional.empty();
    }

    /** What torch's c10d and Python's resolver print when a host name does not resolve. */
    static final List<String> NAME_NOT_RESOLVED =
            List.of("Name or service not known", "Temporary failure in name resolution", "failed to resolve");

    private PodDiagnosis() {}

    /**
     * @param jobFailed whether the job itself has failed: restarts alone are not a diagnosis while it runs
     */
    public static Optional<Diagnosis> of(
            List<Pod> pods, List<Event> events, Instant now, Duration pendingTimeout, boolean jobFailed) {
        return of(pods, events, now, pendingTimeout, jobFailed, LogTails.NONE);
    }

    /**
     * @param jobFailed whether the job itself has failed: restarts alone are not a diagnosis while it runs
     * @param logs the pods' log tails, read only for a pod that crashed or failed
     */
    public static Optional<Diagnosis> of(
            List<Pod> pods,
            List<Event> events,
            Instant now,
            Duration pendingTimeout,
            boolean jobFailed,
            LogTails logs) {
        Optional<Diagnosis> refused = podsRefused(events);
        if (refused.isPresent()) {
            return refused;
        }
        for (Pod pod : pods) {
            Optional<Diagnosis> found = imagePull(pod)
                    .or(() -> evictedForDisk(pod))
                    .or(() -> crashLoop(pod, jobFailed, logs))
                    .or(() -> failedWithUnresolvedName(pod, jobFailed, logs));
            if (found.isPresent()) {
                return found;
            }
        }
        for (Pod pod : pods) {
            Optional<Diagnosis> found = unschedulable(pod, events, now, pendingTimeout)
                    .or(() -> failedMount(pod, events, now, pendingTimeout));
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** A private ECR registry's host (https://docs.aws.amazon.com/AmazonECR/latest/userguide/Registries.html). */
    private static final java.util.regex.Pattern PRIVATE_ECR =
            java.util.regex.Pattern.compile("\\d{12}\\.dkr\\.ecr(-fips)?\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?/.*");

    private static Optional<Diagnosis> imagePull(Pod pod) {
        List<ContainerStatus> statuses = new java.util.ArrayList<>(containerStatuses(pod));
        if (pod.getStatus() != null && pod.getStatus().getInitContainerStatuses() != null) {
            statuses.addAll(pod.getStatus().getInitContainerStatuses());
        }
        for (ContainerStatus status : statuses) {
            ContainerStateWaiting waiting =
                    status.getState() == null ? null : status.getState().getWaiting();
            if (waiting != null && IMAGE_PULL.contains(waiting.getReason())) {
                String image = Objects.requireNonNullElseGet(status.getImage(), () -> imageOf(pod, status.getName()));
                boolean diskFull =
                        waiting.getMessage() != null && waiting.getMessage().contains(NO_SPACE);
                return Optional.of(new Diagnosis(
                        diskFull ? FailureReason.NodeDiskFull : FailureReason.ImagePullFailed,
                        "the image " + image + " of pod " + name(pod)
                                + " cannot be pulled (" + waiting.getReason() + detail(waiting.getMessage())
                                + "); "
                                + (PRIVATE_ECR.matcher(image).matches()
                                                && waiting.getMessage() != null
                                                && (waiting.getMessage().contains("401 Unauthorized")
                                                        || waiting.getMessage().contains("403 Forbidden"))
                                        // https://docs.aws.amazon.com/AmazonECR/latest/userguide/ECR_on_EKS.html
                                        ? "ECR refused the nodes: their role needs ecr:GetAuthorizationToken,"
                                                + " ecr:BatchGetImage and ecr:GetDownloadUrlForLayer on the repository"
                                                + " (AmazonEC2ContainerRegistryReadOnly), and a repository in another"
                                                + " account a repository policy that lets the role pull"
                                        : diskFull
                                                ? DISK_TOO_SMALL
                                                : "check the image (workload.image, or training.image) and that the nodes can reach its registry"),
                        name(pod),
                        false));
            }
        }
        return Optional.empty();
    }

    /** The reason a workload's controller gives an event when the API server refuses its pod. */
    static final String FAILED_CREATE = "FailedCreate";

    /**
     * A workload whose pods the API server forbids (its controller's FailedCreate event, "Error
     * creating: pods … is forbidden: …"): Pod Security Admission (a level the pods do not meet, e.g.
     * a cluster whose default is restricted: the run's pods run as root) or a ResourceQuota. The
     * controller keeps trying, and nothing changes until someone changes the cluster.
     */
    private static Optional<Diagnosis> podsRefused(List<Event> events) {
        return events.stream()
                .filter(e -> FAILED_CREATE.equals(e.getReason())
                        && e.getMessage() != null
                        && e.getMessage().contains("is forbidden"))
                .findFirst()
                .map(e -> new Diagnosis(
                        FailureReason.PodsForbidden,
                        "the " + e.getInvolvedObject().getKind() + " "
                                + e.getInvolvedObject().getName()
                                + " cannot create its pods (" + e.getMessage() + "); "
                                + (e.getMessage().contains("violates PodSecurity")
                                        ? "the cluster enforces a Pod Security level the run's pods do not meet (they"
                                                + " meet baseline; images such as PyTorch's run as root, which"
                                                + " restricted forbids): exempt the runs' namespaces (tp-*) or enforce"
                                                + " baseline for them"
                                        : "the namespace's quota or policy forbids them: raise it for the runs'"
                                                + " namespaces (tp-*)"),
                        e.getInvolvedObject().getName(),
                        false));
    }

    /** containerd's words when a pull fills the node's disk. */
    static final String NO_SPACE = "no space left on device";

    private static final String DISK_TOO_SMALL = "the nodes' root volumes are too small for the images they pull:"
            + " raise cluster.nodeGroup.diskGiB (left out, it is sized from the training image), or, on an"
            + " existing cluster, its node group's root volume";

    /**
     * A pod the kubelet evicted because its node's disk was nearly full
     * (https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/): status reason
     * Evicted, its message naming ephemeral-storage. A new pod would fill the disk again.
     */
    private static Optional<Diagnosis> evictedForDisk(Pod pod) {
        if (pod.getStatus() == null
                || !"Evicted".equals(pod.getStatus().getReason())
                || pod.getStatus().getMessage() == null
                || !pod.getStatus().getMessage().contains("ephemeral-storage")) {
            return Optional.empty();
        }
        return Optional.of(new Diagnosis(
                FailureReason.NodeDiskFull,
                "pod " + name(pod) + " was evicted ("
                        + pod.getStatus().getMessage().strip() + "); " + DISK_TOO_SMALL,
                name(pod),
                false));
    }

    private static Optional<Diagnosis> crashLoop(Pod pod, boolean jobFailed, LogTails logs) {
        for (ContainerStatus status : containerStatuses(pod)) {
            ContainerStateWaiting waiting =
                    status.getState() == null ? null : status.getState().getWaiting();
            int restarts = status.getRestartCount() == null ? 0 : status.getRestartCount();
            boolean looping = waiting != null && "CrashLoopBackOff".equals(waiting.getReason());
            if (looping || (restarts > 0 && jobFailed)) {
                String last = lastTermination(status)
                        .map(t -> "; last exit code " + t.getExitCode() + detail(t.getReason())
                                + (t.getMessage() == null || t.getMessage().isBlank()
                                        ? ""
                                        : ":\n" + JobPods.tail(t.getMessage())))
                        .orElse("");
                Optional<String> tail = logs.tail(name(pod), restarts > 0);
                Optional<Diagnosis> unresolved = unresolvedName(pod, tail.orElse("") + "\n" + last, restarts > 0);
                if (unresolved.isPresent()) {
                    return unresolved;
                }
                // The user's own exception first: the log's last lines are often torchrun's summary.
                String raised = UserTraceback.in(tail.orElse(""))
                        .or(() ->
                                lastTermination(status).map(t -> t.getMessage()).flatMap(UserTraceback::in))
                        .map(t -> t.summary() + " — ")
                        .orElse("");
                return Optional.of(new Diagnosis(
                        FailureReason.CrashLoop,
                        raised + "container " + status.getName() + " of pod " + name(pod)
                                + " keeps crashing (restarted " + restarts + " times"
                                + (looping ? ", CrashLoopBackOff" : "") + ")"
                                + last
                                + tail.map(t -> "\nlast lines of its log:\n" + t)
                                        .orElse(""),
                        name(pod),
                        restarts > 0));
            }
        }
        return Optional.empty();
    }

    private static Optional<Diagnosis> unschedulable(Pod pod, List<Event> events, Instant now, Duration timeout) {
        if (pod.getStatus() == null || !"Pending".equals(pod.getStatus().getPhase())) {
            return Optional.empty();
        }
        PodCondition scheduled = condition(pod, "PodScheduled");
        if (scheduled == null || !"False".equals(scheduled.getStatus())) {
            return Optional.empty();
        }
        String since = scheduled.getLastTransitionTime() != null
                ? scheduled.getLastTransitionTime()
                : pod.getMetadata().getCreationTimestamp();
        if (since == null || Duration.between(Instant.parse(since), now).compareTo(timeout) < 0) {
            return Optional.empty();
        }
        String why = scheduled.getMessage() != null && !scheduled.getMessage().isBlank()
                ? scheduled.getMessage()
                : schedulerEvent(pod, events)
                        .orElse(Objects.requireNonNullElse(scheduled.getReason(), "no reason given"));
        return Optional.of(new Diagnosis(
                FailureReason.Unschedulable,
                "pod " + name(pod) + " has not been scheduled for " + timeout.toMinutes() + " minutes: " + why + "; "
                        + SchedulerMessage.fix(why),
                name(pod),
                false));
    }

    /**
     * A pod that failed (no restart to show as a crash loop) because a host name did not resolve:
     * read only once the job failed, when its log tail is what there is to say.
     */
    private static Optional<Diagnosis> failedWithUnresolvedName(Pod pod, boolean jobFailed, LogTails logs) {
        if (!jobFailed
                || pod.getStatus() == null
                || !"Failed".equals(pod.getStatus().getPhase())) {
            return Optional.empty();
        }
        String message = containerStatuses(pod).stream()
                .map(PodDiagnosis::lastTermination)
                .flatMap(Optional::stream)
                .map(ContainerStateTerminated::getMessage)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse("");
        return unresolvedName(pod, logs.tail(name(pod), false).orElse("") + "\n" + message, false);
    }

    /**
     * The rendezvous (or any peer) could not be found by name: the line of the log that says so.
     * c10d also warns that a name has no IPv6 address while its IPv4 one resolves; those lines
     * alone say nothing, and are skipped.
     */
    private static Optional<Diagnosis> unresolvedName(Pod pod, String log, boolean restarted) {
        return log.lines()
                .filter(line -> NAME_NOT_RESOLVED.stream().anyMatch(line::contains))
                .filter(line -> !line.contains("IPv6 network addresses"))
                .reduce((first, last) -> last)
                .map(line -> new Diagnosis(
                        FailureReason.RendezvousUnresolved,
                        "pod " + name(pod) + " could not resolve a host name: " + line.strip()
                                + "; the training's rendezvous is reached by its Service's DNS name, which only"
                                + " the cluster DNS answers: CoreDNS is not running on the cluster (check the"
                                + " EKS add-on coredns: aws eks describe-addon --cluster-name <cluster>"
                                + " --addon-name coredns, and kubectl -n kube-system get pods -l k8s-app=kube-dns;"
                                + " its pods need a node whose taints they tolerate)",
                        name(pod),
                        restarted));
    }

    /**
     * A scheduled pod whose volumes the kubelet cannot mount, past the pending timeout: the last
     * FailedMount (or FailedAttachVolume) event about it, and what it means for EFS.
     */
    private static Optional<Diagnosis> failedMount(Pod pod, List<Event> events, Instant now, Duration timeout) {
        if (pod.getStatus() == null || !"Pending".equals(pod.getStatus().getPhase())) {
            return Optional.empty();
        }
        PodCondition scheduled = condition(pod, "PodScheduled");
        if (scheduled == null || !"True".equals(scheduled.getStatus())) {
            return Optional.empty();
        }
        List<String> mountErrors = events.stream()
                .filter(e -> "FailedMount".equals(e.getReason()) || "FailedAttachVolume".equals(e.getReason()))
                .filter(e -> e.getInvolvedObject() != null
                        && name(pod).equals(e.getInvolvedObject().getName()))
                .map(Event::getMessage)
                .filter(Objects::nonNull)
                .toList();
        if (mountErrors.isEmpty()) {
            return Optional.empty();
        }
        String since = scheduled.getLastTransitionTime() != null
                ? scheduled.getLastTransitionTime()
                : pod.getMetadata().getCreationTimestamp();
        if (since == null || Duration.between(Instant.parse(since), now).compareTo(timeout) < 0) {
            return Optional.empty();
        }
        // The kubelet's summary ("Unable to attach or mount volumes: ... timed out waiting for the
        // condition") comes with every cause; the specific message says which.
        String why = mountErrors.stream()
                .filter(m -> !m.startsWith("Unable to attach or mount volumes"))
                .reduce((first, last) -> last)
                .orElse(mountErrors.get(mountErrors.size() - 1));
        return Optional.of(new Diagnosis(
                FailureReason.FailedMount,
                "pod " + name(pod) + " has waited " + timeout.toMinutes() + " minutes for its volumes: " + why + "; "
                        + mountFix(mountErrors),
                name(pod),
                false));
    }

    static String mountFix(List<String> messages) {
        java.util.regex.Matcher driver = messages.stream()
                .map(m -> java.util.regex.Pattern.compile(
                                "driver name (\\S+) not found in the list of registered CSI drivers")
                        .matcher(m))
                .filter(java.util.regex.Matcher::find)
                .findFirst()
                .orElse(null);
        if (driver != null) {
            String name = driver.group(1);
            return name.equals(ClusterPrerequisites.EFS_CSI_DRIVER)
                    ? "the Amazon EFS CSI driver does not run on the pod's node: install the EKS add-on aws-efs-csi-driver"
                            + " (" + ClusterPrerequisites.INSTALL_EFS_CSI_DRIVER + ") and check that its"
                            + " efs-csi-node pods run on every node (kubectl -n kube-system get pods -l app=efs-csi-node)"
                    : "the CSI driver " + name + " does not run on the pod's node: install it, and check that its node"
                            + " pods run there";
        }
        boolean unreachable = messages.stream()
                .anyMatch(m -> m.contains("Connection timed out")
                        || m.contains("DeadlineExceeded")
                        || m.contains("Failed to resolve")
                        || m.contains("mount target"));
        if (unreachable) {
            return "the node cannot reach the file system: it needs a mount target in the node's Availability Zone"
                    + " (aws efs describe-mount-targets --file-system-id <fs>), and the mount target's security group"
                    + " must allow NFS (TCP 2049) from the nodes' security group"
                    + " (https://docs.aws.amazon.com/efs/latest/ug/troubleshooting-efs-mounting.html)";
        }
        return "check the volume (kubectl describe pod) and the CSI driver's node pods";
    }

    private static Optional<String> schedulerEvent(Pod pod, List<Event> events) {
        return events.stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()))
                .filter(e -> e.getInvolvedObject() != null
                        && name(pod).equals(e.getInvolvedObject().getName()))
                .map(Event::getMessage)
                .filter(Objects::nonNull)
                .reduce((first, last) -> last);
    }

    private static Optional<ContainerStateTerminated> lastTermination(ContainerStatus status) {
        if (status.getLastState() != null && status.getLastState().getTerminated() != null) {
            return Optional.of(status.getLastState().getTerminated());
        }
        return Optional.ofNullable(
                status.getState() == null ? null : status.getState().getTerminated());
    }

    private static PodCondition condition(Pod pod, String type) {
        List<PodCondition> conditions = pod.getStatus().getConditions();
        return conditions == null
                ? null
                : conditions.stream()
                        .filter(c -> type.equals(c.getType()))
                        .findFirst()
                        .orElse(null);
    }

    private static List<ContainerStatus> containerStatuses(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return List.of();
        }
        return pod.getStatus().getContainerStatuses();
    }

    private static String imageOf(Pod pod, String container) {
        return pod.getSpec() == null
                ? "?"
                : pod.getSpec().getContainers().stream()
                        .filter(c -> c.getName().equals(container))
                        .map(c -> c.getImage())
                        .findFirst()
                        .orElse("?");
    }

    private static String detail(String text) {
        return text == null || text.isBlank() ? "" : ": " + text;
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getName();
    }
}
