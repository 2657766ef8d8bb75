package io.trainplane.workflow;

import io.trainplane.core.Json;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.eks.ControlPlaneLogGroup;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.CleanupSpec;
import io.trainplane.spec.RunSpecs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the run record says about cleanup: which resources are still there, which the spec keeps,
 * which cleanup deleted ({@value #DELETED_PREFIX}{@code <key>}, written as each goes), and whether
 * it finished ({@value #FINISHED}, written once, by the pass that found nothing left: that pass
 * alone publishes {@code Run Cleaned Up}).
 */
public final class CleanupRecord {
    /** When cleanup found nothing left to delete (ISO-8601). */
    public static final String FINISHED = "cleanup/finished";
    /** Prefix of the record's entries for deleted resources: {@code cleanup/deleted/eks/cluster → name}. */
    public static final String DELETED_PREFIX = "cleanup/deleted/";

    /** The resources cleanup deletes, by record key, and how events name them. */
    private static final Map<String, String> DELETABLE = new LinkedHashMap<>();

    static {
        DELETABLE.put(RunResources.NAMESPACE, "kubernetes:Namespace/");
        DELETABLE.put(RunResources.NODE_GROUP, "eks:nodegroup/");
        DELETABLE.put(RunResources.LAUNCH_TEMPLATE, "cloudcontrol:AWS::EC2::LaunchTemplate/");
        DELETABLE.put(RunResources.PLACEMENT_GROUP, "cloudcontrol:AWS::EC2::PlacementGroup/");
        DELETABLE.put(RunResources.EKS_CLUSTER, "eks:cluster/");
        DELETABLE.put(RunResources.LOG_GROUP, ControlPlaneLogGroup.REF_PREFIX);
        DELETABLE.put(RunResources.FILE_SYSTEM, "efs:file-system/");
        DELETABLE.put(RunResources.FILE_SYSTEM_TOKEN, "efs:creation-token/");
    }

    private CleanupRecord() {}

    /** {@code run} with the deletion of {@code key} noted, when it names a resource that existed. */
    static RunRecord deleted(RunRecord run, String key) {
        String value = run.resources().get(key);
        if (value == null || !DELETABLE.containsKey(key) || key.equals(RunResources.FILE_SYSTEM_TOKEN)) {
            return run;
        }
        return run.withResource(DELETED_PREFIX + key, value);
    }

    /** What cleanup deleted, as events name resources ({@code eks:cluster/tp-…}). */
    public static List<String> deleted(RunRecord run) {
        List<String> deleted = new ArrayList<>();
        DELETABLE.forEach((key, prefix) -> {
            String value = run.resources().get(DELETED_PREFIX + key);
            if (value != null) {
                deleted.add(prefix + value);
            }
        });
        return deleted;
    }

    /** What the spec keeps (keepCluster, keepVolume, an adopted file system) and the record still lists. */
    public static List<String> kept(RunRecord run) {
        List<String> kept = new ArrayList<>();
        DELETABLE.forEach((key, prefix) -> {
            String value = run.resources().get(key);
            if (value != null && isKept(run, key)) {
                kept.add(prefix + value);
            }
        });
        return kept;
    }

    /** What is still there and not kept: what cleanup has yet to delete. */
    public static List<String> leftovers(RunRecord run) {
        List<String> left = new ArrayList<>();
        DELETABLE.forEach((key, prefix) -> {
            String value = run.resources().get(key);
            if (value != null && !isKept(run, key)) {
                left.add(prefix + value);
            }
        });
        return left;
    }

    /** Whether the run needs no more cleanup: it is over and nothing but kept resources is left. */
    public static boolean finished(RunRecord run) {
        return run.status().isTerminal() && leftovers(run).isEmpty();
    }

    /** The detail of {@code Run Cleaned Up}. */
    static ObjectNode event(RunRecord run) {
        ObjectNode detail = Json.object().put("runId", run.runId());
        deleted(run).forEach(detail.putArray("deleted")::add);
        kept(run).forEach(detail.putArray("kept")::add);
        return detail;
    }

    private static boolean isKept(RunRecord run, String key) {
        CleanupSpec keep;
        try {
            keep = RunSpecs.fromNormalized(run.specJson()).cleanup();
        } catch (RuntimeException unreadable) {
            return false;
        }
        return switch (key) {
            case RunResources.EKS_CLUSTER, RunResources.NODE_GROUP, RunResources.LAUNCH_TEMPLATE,
                 RunResources.PLACEMENT_GROUP, RunResources.LOG_GROUP -> keep.keepCluster();
            case RunResources.FILE_SYSTEM, RunResources.FILE_SYSTEM_TOKEN ->
                    keep.keepVolume() || "true".equals(run.resources().get(RunResources.FILE_SYSTEM_ADOPTED));
            default -> false;
        };
    }
}
