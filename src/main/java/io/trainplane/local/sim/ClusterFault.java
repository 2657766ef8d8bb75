package io.trainplane.local.sim;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What can go wrong on the cluster, simulated for {@code trainplane run --cluster-fault}: each
 * produces the pod or job states a real cluster shows in that case. Faults of the cluster itself
 * (taints, cordons, software removed) change its nodes and objects ({@link ClusterTrouble}), and
 * the scheduler, the device plugins and the kubelet's volume mounts take it from there; faults of
 * the workload (image, crash, checksum, accuracy) come from {@link SimulatedWorkload}.
 */
public enum ClusterFault {
    /**
     * The worker nodes are cordoned ({@code kubectl cordon}, as a drain or a node termination
     * handler does): the scheduler places nothing new on them, the training pods stay Pending with
     * "node(s) were unschedulable".
     */
    UNSCHEDULABLE("unschedulable"),
    /**
     * The worker node group's nodes register with a taint the run's pods do not tolerate
     * ({@link ClusterTrouble#FOREIGN_TAINT}): the training pods stay Pending with "node(s) had
     * untolerated taint(s)".
     */
    UNTOLERATED_TAINT("untolerated-taint"),
    /**
     * Every node, the system node group's too, registers with that taint: the add-ons' controllers
     * (CoreDNS, the EFS CSI controller) cannot schedule, and their EKS add-ons go DEGRADED.
     */
    EVERY_NODE_TAINTED("every-node-tainted"),
    /**
     * Once the training starts, someone removes the NVIDIA device plugin's DaemonSet (a GitOps
     * prune, a cleanup script): the nodes stop advertising nvidia.com/gpu, the training pods stay
     * Pending with "Insufficient nvidia.com/gpu".
     */
    DEVICE_PLUGIN_REMOVED("device-plugin-removed"),
    /**
     * Once the training starts, someone uninstalls the Amazon EFS CSI driver (its node DaemonSet,
     * controller and CSIDriver): the kubelet cannot mount the EFS volume, the training pods wait in
     * ContainerCreating with FailedMount.
     */
    CSI_DRIVER_REMOVED("csi-driver-removed"),
    /**
     * Mid-training, one worker node is lost (the instance fails or is terminated): the node object
     * goes, the pod garbage collector marks its pods Failed with the {@code DisruptionTarget}
     * condition (reason {@code DeletionByPodGC}); the node group replaces the instance, whose node
     * registers a few minutes later under a new name.
     */
    NODE_LOST("node-lost"),
    /**
     * Mid-training, EC2 reclaims one worker's spot instance: the kubelet's graceful node shutdown
     * terminates its pods (SIGTERM: the training checkpoints, torchrun exits 1; {@code DisruptionTarget}, reason
     * {@code TerminationByKubelet}), the node goes, and the node group launches a replacement.
     */
    SPOT_INTERRUPTION("spot-interruption"),
    /** The training image cannot be pulled: ImagePullBackOff. */
    IMAGE_PULL("image-pull"),
    /**
     * The training container crashes at start: a pod that restarts its containers (a PyTorchJob's,
     * restartPolicy OnFailure) ends in CrashLoopBackOff; an Indexed Job's (restartPolicy Never)
     * fails once with exit code 1.
     */
    CRASH_LOOP("crash-loop"),
    /** The downloaded archive does not match its sha256: the data pod exits 3. */
    BAD_CHECKSUM("bad-checksum"),
    /** The model trains but evaluates below evaluation.minAccuracy. */
    LOW_ACCURACY("low-accuracy"),
    /** Someone deletes the training Job while it runs. */
    JOB_DELETED("job-deleted");

    private final String cli;

    ClusterFault(String cli) {
        this.cli = cli;
    }

    /** The spelling on the command line. */
    public String cli() {
        return cli;
    }

    /** After how many epochs of {@code epochs} a fault that interrupts the training strikes: those asked for, or half. */
    public static int interruptAfter(int asked, int epochs) {
        return asked > 0 ? asked : epochs / 2;
    }

    public static ClusterFault of(String cli) {
        return Arrays.stream(values())
                .filter(f -> f.cli.equals(cli))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no cluster fault '" + cli + "'; faults: "
                        + Arrays.stream(values()).map(ClusterFault::cli).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return cli;
    }
}
