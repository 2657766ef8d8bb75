package io.trainplane.workflow;

import io.trainplane.aws.Settings;
import io.trainplane.spec.Names;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.SpecProblem;
import io.trainplane.spec.VolumeSpec;
import io.trainplane.spec.VolumeType;
import java.util.ArrayList;
import java.util.List;

/**
 * What a spec asks of AWS that the stack's roles grant only through a stack parameter, checked by
 * StartRun before anything is created: otherwise the run builds its cluster and fails later with
 * an AccessDenied that points at template.yaml instead of at the parameter to set.
 */
final class StackGrants {
    private StackGrants() {}

    static List<SpecProblem> problems(RunSpec spec, Settings settings) {
        List<SpecProblem> problems = new ArrayList<>();
        if (!spec.cluster().created()) {
            clusterName(spec.cluster().name(), settings, problems);
        }
        VolumeSpec volume = spec.volume();
        if (volume.type() == VolumeType.FSX_LUSTRE) {
            // ClusterWorkRole may link a Lustre file system only to the buckets LustreDataBuckets names
            // (template.yaml, RunVolumesPolicy's LustreLinkedBuckets): FSx asks the caller's access to them
            // (https://docs.aws.amazon.com/fsx/latest/LustreGuide/setting-up.html#fsx-adding-permissions-s3).
            linkedBucket(volume.s3ImportPath(), "/volume/s3ImportPath", settings, problems);
            linkedBucket(volume.s3ExportPath(), "/volume/s3ExportPath", settings, problems);
        }
        return problems;
    }

    /**
     * A cluster a run uses but does not create (modes existing, warm) is one the stack's parameter
     * ExistingClusterNamePrefix admits, as its role's policy says, and never one of the runs' own
     * ({@link Names#PREFIX}{@code *}): those belong to other runs, whose volumes they mount.
     */
    private static void clusterName(String name, Settings settings, List<SpecProblem> problems) {
        String prefix = settings.existingClusterNamePrefix();
        if (name.startsWith(Names.PREFIX)) {
            problems.add(new SpecProblem(
                    "/cluster/name",
                    "'" + name + "' is named as the clusters runs create for themselves (" + Names.PREFIX
                            + "*): it belongs to another run",
                    "give a cluster of your own, or set cluster.mode to \"create\""));
        } else if (!name.startsWith(prefix)) {
            problems.add(new SpecProblem(
                    "/cluster/name",
                    "'" + name + "' does not start with '" + prefix + "', the stack's ExistingClusterNamePrefix:"
                            + " its role may not use the cluster",
                    "give a cluster whose name starts with '" + prefix + "', or deploy the stack with"
                            + " ExistingClusterNamePrefix set for it"));
        }
    }

    private static void linkedBucket(String path, String pointer, Settings settings, List<SpecProblem> problems) {
        if (path == null) {
            return;
        }
        String bucket = bucketOf(path);
        List<String> granted = settings.lustreDataBuckets();
        if (!granted.contains(bucket)) {
            problems.add(new SpecProblem(
                    pointer,
                    "links the bucket '" + bucket + "', which this stack does not let runs link (its parameter"
                            + " LustreDataBuckets is " + (granted.isEmpty() ? "empty" : String.join(",", granted))
                            + ")",
                    "deploy the stack with the bucket in LustreDataBuckets (sam deploy --parameter-overrides"
                            + " LustreDataBuckets=" + String.join(",", append(granted, bucket))
                            + "), or leave " + pointer.substring(pointer.lastIndexOf('/') + 1) + " out"));
        }
    }

    private static String bucketOf(String s3Uri) {
        String rest = s3Uri.substring("s3://".length());
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }

    private static List<String> append(List<String> list, String item) {
        List<String> out = new ArrayList<>(list);
        out.add(item);
        return out;
    }
}
