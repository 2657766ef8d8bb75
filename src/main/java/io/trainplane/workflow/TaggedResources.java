package io.trainplane.workflow;

import io.trainplane.aws.Clients;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.Names;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.efs.model.FileSystemDescription;
import software.amazon.awssdk.services.efs.model.LifeCycleState;
import software.amazon.awssdk.services.efs.model.Tag;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * What exists in the account on behalf of a run: EKS clusters (with their node groups) and EFS
 * file systems tagged {@value Names#RUN_ID_TAG}, grouped by run. Untagged resources are never
 * listed, so nothing the janitor does can reach them.
 */
final class TaggedResources {
    /** One tagged resource: the run record's key for it, its id, and its reference as events name it. */
    record Found(String key, String id, String ref) {}

    private TaggedResources() {}

    static Map<String, List<Found>> byRun(Clients clients) {
        Map<String, List<Found>> byRun = new LinkedHashMap<>();
        var eks = clients.eks();
        for (String cluster : eks.listClustersPaginator(r -> {}).clusters()) {
            String runId;
            try {
                runId = eks.describeCluster(r -> r.name(cluster)).cluster().tags().get(Names.RUN_ID_TAG);
            } catch (ResourceNotFoundException gone) {
                continue;
            }
            if (runId == null) {
                continue;
            }
            List<Found> found = byRun.computeIfAbsent(runId, k -> new ArrayList<>());
            for (String nodegroup : eks.listNodegroupsPaginator(r -> r.clusterName(cluster)).nodegroups()) {
                found.add(new Found(RunResources.NODE_GROUP, nodegroup, "eks:nodegroup/" + nodegroup));
            }
            found.add(new Found(RunResources.EKS_CLUSTER, cluster, "eks:cluster/" + cluster));
        }
        for (FileSystemDescription fs : clients.efs().describeFileSystemsPaginator(r -> {}).fileSystems()) {
            if (fs.lifeCycleState() == LifeCycleState.DELETED) {
                continue;
            }
            fs.tags().stream().filter(t -> t.key().equals(Names.RUN_ID_TAG)).map(Tag::value).findFirst().ifPresent(runId ->
                    byRun.computeIfAbsent(runId, k -> new ArrayList<>())
                            .add(new Found(RunResources.FILE_SYSTEM, fs.fileSystemId(), "efs:file-system/" + fs.fileSystemId())));
        }
        return byRun;
    }
}
