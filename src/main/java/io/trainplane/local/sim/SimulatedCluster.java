package io.trainplane.local.sim;

import java.time.Instant;
import java.util.List;

/**
 * One cluster's Kubernetes: its own API server and the control plane that acts on it (the
 * scheduler, the Job, Deployment and DaemonSet controllers, the kubelets' image pulls, the node objects of its node groups,
 * device plugins' resources) and, when installed, the Kubeflow training operator.
 */
public final class SimulatedCluster implements AutoCloseable {
    private final String name;
    private final SimulatedKubernetes server;
    private final ClusterReads reads;
    private final Scheduler scheduler;
    private final WorkloadControllers workloads;
    private final JobController jobs;
    private final PyTorchJobController pytorchJobs;
    private final MpiJobController mpiJobs;
    private final ImagePulls pulls;
    private boolean closed;

    SimulatedCluster(String name, PodBehaviour behaviour, VolumeMounts.MountTargets mountTargets) {
        this(name, behaviour, mountTargets, ImagePulls.Registries.ANY);
    }

    SimulatedCluster(
            String name,
            PodBehaviour behaviour,
            VolumeMounts.MountTargets mountTargets,
            ImagePulls.Registries registries) {
        this.name = name;
        this.server = new SimulatedKubernetes();
        this.reads = new ClusterReads(server);
        this.scheduler = new Scheduler(reads);
        this.pulls = new ImagePulls(reads, registries);
        this.workloads = new WorkloadControllers(reads, scheduler, pulls);
        this.jobs = new JobController(reads, behaviour, scheduler, mountTargets, pulls);
        this.pytorchJobs = new PyTorchJobController(reads, behaviour, jobs);
        this.mpiJobs = new MpiJobController(reads, jobs);
    }

    public String name() {
        return name;
    }

    public SimulatedKubernetes kubernetes() {
        return server;
    }

    /** Catches up with {@code now}: nodes of the ACTIVE node groups {@code groups}, then the controllers. */
    synchronized void reconcile(Instant now, List<ClusterNodes.Group> groups) {
        reconcile(now, groups, ClusterTrouble.none());
    }

    /** As {@link #reconcile(Instant, List)}, with {@code trouble} striking the nodes (a lost node, its replacement). */
    synchronized void reconcile(Instant now, List<ClusterNodes.Group> groups, ClusterTrouble trouble) {
        if (closed) {
            return;
        }
        ApiExtensions.establish(server.admin(), server.takeNewDefinitions(), now);
        ClusterNodes.sync(reads, groups, now, trouble);
        pulls.nodeGroups(groups);
        trouble.loseNodes(reads, now);
        workloads.reconcile(now);
        DevicePlugins.sync(reads, groups);
        jobs.reconcile(now);
        pytorchJobs.reconcile(now);
        mpiJobs.reconcile(now);
    }

    @Override
    public synchronized void close() {
        closed = true;
        server.close();
    }
}
