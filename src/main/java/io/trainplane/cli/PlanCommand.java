package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.CodeRoute;
import io.trainplane.kubernetes.VolumeManifests;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.CostEstimate;
import io.trainplane.runs.PastEpochs;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.VolumeType;
import io.trainplane.spec.WorkloadSpec;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description =
                "Print the AWS resources and Kubernetes objects a run would create (each Job summarized; the full"
                        + " manifests with --output json or yaml), and an estimate of its cost: expected, and worst case at maxRunHours. Creates nothing.")
final class PlanCommand extends ClientsCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Mixin
    SpecInput spec;

    @Option(names = "--output", defaultValue = "text", paramLabel = "FORMAT", description = OutputFormat.HELP)
    OutputFormat output;

    /**
     * The run store whose earlier runs of the spec time a workload of the user's own (none: the
     * plan reads no store). A group, not a mixin: picocli's help would list a mixin's group twice.
     */
    @ArgGroup(
            exclusive = true,
            multiplicity = "0..1",
            heading = "Earlier runs to learn training.secondsPerEpoch from:%n")
    TableOptions history;

    @Override
    public Integer call() {
        LocalDate runDay = today();
        // The stack's Region with --stack (its runs are learned from); else the environment's.
        String region = history != null && history.stack() != null
                ? clients.region()
                : RunPrices.regionOf(clients.environment());
        JsonNode normalized = spec.normalized(runDay, region);
        String runId = SpecInput.runIdOf(normalized);
        var code = CodeShipment.pack(
                spec, (com.fasterxml.jackson.databind.node.ObjectNode) normalized, runId, CodeShipment.PLANNED_BUCKET);
        RunSpec run = RunSpecs.fromNormalized(normalized).withRunId(runId);
        List<HasMetadata> manifests = new ArrayList<>(
                new WorkloadManifests(run, code.map(c -> c.packed().files()).orElse(null)).all());
        if (run.volume().type() == VolumeType.EFS) {
            String fileSystem = run.volume().fileSystemId() == null
                    ? "fs-<created by the run>"
                    : run.volume().fileSystemId();
            manifests.addAll(1, new VolumeManifests(run.names(), fileSystem).all());
        }
        if (run.volume().type() == VolumeType.FSX_LUSTRE) {
            String fileSystem = run.volume().fileSystemId() == null
                    ? "fs-<created by the run>"
                    : run.volume().fileSystemId();
            manifests.addAll(
                    1,
                    VolumeManifests.lustre(
                                    run.names(),
                                    fileSystem,
                                    fileSystem + ".fsx.<region>.amazonaws.com",
                                    "<mount name FSx gives>",
                                    run.volume().lustreStorageCapacityGiB())
                            .all());
        }
        List<String> aws = AwsPlan.of(run);
        RunPrices prices = RunPrices.forRegion(region);
        if (history != null && history.stack() != null) {
            // The stack's Region today, as StartRun sees it.
            prices = LivePrices.of(run, prices, clients, command.commandLine().getErr());
        }
        CostEstimate cost = estimate(run, runDay, prices);
        List<String> warnings = SpecWarnings.of(run, runDay, prices);
        Optional<InstanceChoices> choices = InstanceChoices.of(
                Json.read(spec.read()),
                run.cluster().nodeGroup() == null
                        ? null
                        : run.cluster().nodeGroup().instanceType(),
                prices);
        if (output.structured()) {
            var plan = Json.object().put("runId", runId);
            warnings.forEach(plan.putArray("warnings")::add);
            ArrayNode awsNode = plan.putArray("aws");
            aws.forEach(awsNode::add);
            ArrayNode kubernetes = plan.putArray("kubernetes");
            manifests.forEach(m -> kubernetes.add(Json.mapper().valueToTree(m)));
            plan.set("cost", cost.toJson());
            choices.ifPresent(c -> plan.set("instanceTypesThatFit", c.toJson()));
            out().println(output.write(plan));
        } else {
            warnings.forEach(w -> command.commandLine().getErr().println("warning: " + w));
            out().println("# Run " + runId);
            out().println("# AWS:");
            aws.forEach(a -> out().println("#   " + a));
            choices.ifPresent(c -> c.print(out()));
            cost.print(out());
            out().println("# Workload: " + workload(run));
            out().println("# Quality gate: " + run.evaluation().describe()
                    + (run.evaluation().gated() ? " on the evaluation's metrics, else the run fails" : ""));
            out().println("# Kubernetes objects, in creation order (all deleted by cleanup):");
            manifests.forEach(m -> ManifestSummary.of(m).forEach(line -> out().println("#   " + line)));
            out().println("# End of plan: " + manifests.size() + " Kubernetes objects; their full manifests:"
                    + " trainplane plan --output yaml (or json) " + spec.path);
        }
        // println flushes picocli's writer, print does not: flush here so nothing stays behind when
        // main exits (the plan was cut off mid-manifest).
        out().flush();
        return Main.SUCCEEDED;
    }

    /**
     * The estimate, a workload of the user's own timed by its earlier runs in the store that
     * {@code --stack}, {@code --local} or {@code --store} names (only such a workload reads it).
     */
    private CostEstimate estimate(RunSpec run, LocalDate runDay, RunPrices prices) {
        if (history == null
                || run.training().secondsPerEpoch() != null
                || run.workload().sameAsBuiltin()) {
            return CostEstimate.of(run, prices, runDay);
        }
        try (TableOptions.Source source = history.open(clients)) {
            return CostEstimate.of(run, prices, runDay, PastEpochs.of(source.store()));
        }
    }

    /** The code route, image and launcher; the command lines are the containers' below. */
    static String workload(RunSpec run) {
        WorkloadSpec workload = run.workload();
        CodeRoute route = CodeRoute.of(workload);
        String at = WorkloadManifests.WORKLOAD_DIR;
        return "code " + workload.code().json()
                + switch (route) {
                    case BUILTIN ->
                        " (the CIFAR-10 scripts of the jar, mounted from the run's ConfigMap at " + at + ")";
                    case IMAGE ->
                        " (the image's own commands, launcher "
                                + workload.launcher().json() + ")";
                    case CONFIGMAP ->
                        " (route configmap: " + workload.codePackage().files().size() + " files, "
                                + workload.codePackage().bytes() + " bytes in the run's ConfigMap, at " + at
                                + ", the working directory; launcher "
                                + workload.launcher().json() + ")";
                    case ARTIFACTS_BUCKET ->
                        " (route artifacts bucket: " + workload.codePackage().bytes() + " bytes uploaded to "
                                + workload.codePackage().s3Uri() + ", copied to " + at + " by the init container "
                                + WorkloadManifests.FETCH_CODE + "; launcher "
                                + workload.launcher().json() + ")";
                    case S3_PREFIX ->
                        " (route s3 prefix: copied to " + at + " by the init container " + WorkloadManifests.FETCH_CODE
                                + " as the run's Pod Identity; launcher "
                                + workload.launcher().json() + ")";
                }
                + ", image " + run.training().image()
                + (workload.hyperparameters().isEmpty()
                        ? ""
                        : ", hyperparameters as --key value and " + WorkloadSpec.HYPERPARAMETER_ENV_PREFIX + "*");
    }

    private java.io.PrintWriter out() {
        return command.commandLine().getOut();
    }
}
