package io.trainplane.workflow;

import io.trainplane.aws.Settings;
import io.trainplane.spec.Names;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.SecretRef;
import io.trainplane.spec.SpecProblem;
import io.trainplane.spec.VolumeSpec;
import io.trainplane.spec.VolumeType;
import io.trainplane.spec.WorkloadCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * What a spec asks of AWS that the stack's roles grant only through a stack parameter, or that
 * belongs to another run, checked by StartRun before anything is created: otherwise the run builds
 * its cluster and fails later with an AccessDenied that points at template.yaml instead of at the
 * parameter to set, or reaches another run's cluster or data.
 */
final class StackGrants {
    private StackGrants() {}

    static List<SpecProblem> problems(RunSpec spec, String runId, Settings settings) {
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
            ownLinks(volume, new Names(runId).artifactsPrefix(), problems);
        }
        secrets("prepare", spec.workload().prepare(), settings, problems);
        secrets("train", spec.workload().train(), settings, problems);
        secrets("evaluate", spec.workload().evaluate(), settings, problems);
        return problems;
    }

    /**
     * A secret by reference is one RunOutputsRole may read: in the stack's Region and account, named
     * under RunSecretsPrefix (template.yaml, ReadRunSecrets and ReadRunParameters). Otherwise the
     * run's pods would fail at fetch-secrets with AccessDenied once the cluster is up.
     */
    private static void secrets(String role, WorkloadCommand command, Settings settings, List<SpecProblem> problems) {
        if (command == null) {
            return;
        }
        String prefix = settings.runSecretsPrefix();
        command.secrets().forEach((name, ref) -> {
            String pointer = "/workload/commands/" + role + "/env/" + name;
            String what = ref instanceof SecretRef.SecretsManager ? "secret" : "SSM parameter";
            if (ref.region().filter(r -> !r.equals(settings.region())).isPresent()) {
                problems.add(new SpecProblem(
                        pointer,
                        "names a " + what + " in " + ref.region().get() + ", but the run's pods read only those of the"
                                + " stack's Region " + settings.region(),
                        "copy the " + what + " to " + settings.region() + " and give its ARN"));
            } else if (ref.account().isPresent()
                    && settings.account().isPresent()
                    && !ref.account().equals(settings.account())) {
                problems.add(new SpecProblem(
                        pointer,
                        "names a " + what + " of the account " + ref.account().get() + ", but the run's pods read only"
                                + " those of the stack's account "
                                + settings.account().get(),
                        "copy the " + what + " into the stack's account and give its ARN"));
            } else if (!ref.resourceName().startsWith(prefix)) {
                problems.add(new SpecProblem(
                        pointer,
                        "names the " + what + " '" + ref.resourceName() + "', which is not under the stack's"
                                + " RunSecretsPrefix '" + prefix + "': the run's pods may read only secrets and SSM"
                                + " parameters named under it",
                        "store it as " + prefix + "..., or deploy the stack with RunSecretsPrefix set for it"));
            }
        });
    }

    /**
     * A Lustre volume's links stay off other runs' data: the export, which writes and deletes
     * objects as the volume's files change (AutoExportPolicy NEW, CHANGED, DELETED), goes under the
     * run's own prefix; the import reads no other run's prefix ({@code runs/<another run>/}).
     */
    private static void ownLinks(VolumeSpec volume, String runPrefix, List<SpecProblem> problems) {
        String export = volume.s3ExportPath();
        if (export != null && !keyOf(export).startsWith(runPrefix)) {
            problems.add(new SpecProblem(
                    "/volume/s3ExportPath",
                    "'" + export + "' is outside the run's own prefix " + runPrefix + ": the export writes and deletes"
                            + " objects there as the volume's files change, which may be other runs' data",
                    "export under s3://" + bucketOf(export) + "/" + runPrefix + ", or leave s3ExportPath out"));
        }
        String importPath = volume.s3ImportPath();
        if (importPath != null
                && keyOf(importPath).startsWith(RUNS)
                && !keyOf(importPath).startsWith(runPrefix)) {
            problems.add(new SpecProblem(
                    "/volume/s3ImportPath",
                    "'" + importPath + "' is another run's prefix: a run reads only its own data and the shared"
                            + " inputs",
                    "import from a prefix outside " + RUNS + " (e.g. inputs/), or copy the data there"));
        }
    }

    /** Where runs' own prefixes are ({@link Names#artifactsPrefix}). */
    private static final String RUNS = "runs/";

    private static String keyOf(String s3Uri) {
        String rest = s3Uri.substring("s3://".length());
        int slash = rest.indexOf('/');
        return slash < 0 ? "" : rest.substring(slash + 1);
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
