package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunPrices;
import io.trainplane.aws.Settings;
import io.trainplane.aws.catalog.InstanceCatalog;
import io.trainplane.aws.catalog.LiveInstanceFacts;
import io.trainplane.aws.s3.ResumeCheckpoints;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.runs.CostEstimate;
import io.trainplane.runs.RunConflictException;
import io.trainplane.runs.RunOutputs;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.CheckpointUri;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.Names;
import io.trainplane.spec.OutputSpec;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.SpecProblem;
import io.trainplane.spec.WorkloadCode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates the spec (for today, on the clients' clock), applies its defaults and creates the run record. The execution's name is
 * the runId: Step Functions refuses a second execution of that name, the conditional create
 * refuses a second run, so a run starts once however often it is asked for.
 */
public final class StartRunStep implements Step {
    private final RunStore store;
    private final RunEventPublisher events;
    private final Clock clock;

    private final Settings settings;
    private final String artifactsBucket;
    private final ResumeCheckpoints checkpoints;
    private final FileSystemAdoption.Lookup fileSystems;
    private final java.util.function.Supplier<InstanceCatalog> catalog;

    public StartRunStep(
            RunStore store,
            RunEventPublisher events,
            Clock clock,
            Settings settings,
            ResumeCheckpoints checkpoints,
            FileSystemAdoption.Lookup fileSystems,
            java.util.function.Supplier<InstanceCatalog> catalog) {
        this.store = store;
        this.events = events;
        this.clock = clock;
        this.settings = settings;
        this.artifactsBucket = settings.artifactsBucket();
        this.checkpoints = checkpoints;
        this.fileSystems = fileSystems;
        this.catalog = catalog;
    }

    /**
     * A directory of code is on the machine of whoever wrote the spec: the CLI packs it and adds
     * {@code workload.package} (the files' place in the Runs table or the artifacts bucket). Without
     * it the pods would have no code, so the run is refused before anything is created.
     */
    static void refuseAnUnpackedDirectory(JsonNode normalized) {
        JsonNode workload = normalized.path("workload");
        String code = workload.path("code").asText("builtin");
        if (WorkloadCode.parse(code) instanceof WorkloadCode.Directory
                && workload.path("package").isMissingNode()) {
            throw new InvalidSpecException(List.of(new SpecProblem(
                    "/workload/code",
                    "'" + code + "' is a local directory, and a run started without the CLI has no copy of it",
                    "start the run with `trainplane start` (or `trainplane run`), which ships the directory, or put"
                            + " the code under an s3:// prefix and give that")));
        }
    }

    @Override
    public JsonNode run(JsonNode input) {
        String executionName = Json.text(input, "executionName");
        // Checked for the day the run starts, on the clients' clock: EKS refuses a Kubernetes version past its support.
        JsonNode normalized = RunSpecs.normalize(
                Json.write(input.path("spec")), KubernetesVersions.day(clock.instant()), settings.region());
        JsonNode runId = normalized.path("runId");
        if (runId.isTextual() && !runId.asText().equals(executionName)) {
            throw new InvalidSpecException(List.of(new SpecProblem(
                    "/runId",
                    "runId '" + runId.asText() + "' differs from the execution name '" + executionName + "'",
                    "start the execution with the runId as its name, or leave runId out")));
        }
        refuseAnUnpackedDirectory(normalized);
        RunSpec run = RunSpecs.fromNormalized(normalized);
        List<SpecProblem> refused = new ArrayList<>(StackGrants.problems(run, executionName, settings));
        LiveInstanceFacts.Checked live = liveFacts(run);
        refused.addAll(live.problems());
        refused.addAll(settings.ceilings()
                .problems(
                        run,
                        CostEstimate.of(run, live.prices(), KubernetesVersions.day(clock.instant()))
                                .ceilingWorstCase(),
                        runningRuns(executionName)));
        if (!refused.isEmpty()) {
            throw new InvalidSpecException(refused);
        }
        ObjectNode spec =
                SecretParameters.qualify(((ObjectNode) normalized.deepCopy()).put("runId", executionName), settings);
        spec.putObject("output")
                .put("s3Uri", outputUri(normalized.path("output").path("s3Uri"), executionName));
        // The budget CheckTraining holds the run to, the stack's default included, travels with the spec.
        Double budget = settings.ceilings().budgetOf(run);
        if (budget != null) {
            spec.put("budgetUsd", budget);
        }
        JsonNode resumeFrom = normalized.path("training").path("resumeFrom");
        String runPrefix = new Names(executionName).artifactsPrefix();
        ResumeSource resume = null;
        if (resumeFrom.isTextual()) {
            resume = resumeSource(
                    resumeFrom.asText(),
                    executionName,
                    normalized.path("training").path("epochs").asInt(),
                    input.path("spec").at("/training/epochs").isMissingNode());
            // The run's pods read only their own prefix: they resume from the copy made below.
            ((ObjectNode) spec.path("training"))
                    .put(
                            "resumeFrom",
                            ResumeCheckpoints.destination(resume.checkpoint(), runPrefix)
                                    .uri());
        }
        String specJson = Json.write(spec);
        try {
            store.create(executionName, specJson, input.path("executionArn").asText(null));
        } catch (RunConflictException e) {
            throw new TerminalException(FailureReason.RunConflict, e.getMessage(), e);
        }
        if (resume != null) {
            // After the record, which refuses a runId already taken: never into another run's prefix.
            checkpoints.copy(resume.checkpoint(), resume.recordedSha256(), runPrefix);
        }
        // After the record too: the run's cleanup lets go of what it claims.
        FileSystemAdoption.claim(run.volume(), fileSystems, settings, store, executionName);
        store.update(executionName, r -> r.status() == RunStatus.PENDING ? r.withStatus(RunStatus.PROVISIONING) : r);
        events.publish("Run Started", Json.object().put("runId", executionName).set("spec", spec));
        ObjectNode context = Json.object().put("runId", executionName);
        context.set("spec", spec);
        return context;
    }

    /**
     * The run's instance types as EC2 describes them today, priced by the Price List when a cost
     * ceiling or a budget must hold (the prices serve nothing else here). A refusal of EC2 or the
     * Price List is the stack's, not the spec's: StartRun's role lacks a permission template.yaml gives.
     */
    private LiveInstanceFacts.Checked liveFacts(RunSpec run) {
        boolean priced = settings.ceilings().maxRunCostUsd() != Double.POSITIVE_INFINITY
                || settings.ceilings().budgetOf(run) != null;
        try {
            return LiveInstanceFacts.check(
                    run, RunPrices.forRegion(settings.region()), catalog.get(), clock.instant(), priced);
        } catch (InstanceCatalog.CatalogError e) {
            throw new TerminalException(
                    FailureReason.InstanceCatalogRefused,
                    e.getMessage() + ": StartRun asks EC2 and the Price List about the run's instance types"
                            + " (template.yaml's StartRunRole allows it); deploy the stack again (sam deploy)");
        }
    }

    /**
     * The stack's runs not yet over, this one left out (a retried StartRun finds its own record), as
     * many as MaxConcurrentRuns needs to be judged: not atomic, two runs started in the same instant
     * may both pass.
     */
    private int runningRuns(String runId) {
        int limit = settings.ceilings().maxConcurrentRuns();
        if (limit == Integer.MAX_VALUE) {
            return 0;
        }
        int running = 0;
        for (RunStatus status : RunStatus.values()) {
            if (!status.isTerminal()) {
                running += (int) store.listByStatus(status, limit + 1).stream()
                        .filter(r -> !r.runId().equals(runId))
                        .count();
            }
        }
        return running;
    }

    /**
     * Where the outputs go: the spec's output.s3Uri, or the run's prefix in the artifacts bucket.
     * RunOutputsRole (template.yaml) lets the run's pods write only under that prefix, so another
     * place is refused before anything is created rather than failing the upload after hours of
     * training.
     */
    private String outputUri(JsonNode given, String runId) {
        if (artifactsBucket == null || artifactsBucket.isEmpty()) {
            throw new TerminalException(
                    FailureReason.NoArtifactsBucket,
                    "the stack has no artifacts bucket (ARTIFACTS_BUCKET is not set): deploy the stack again");
        }
        String own = OutputSpec.defaultFor(artifactsBucket, runId).s3Uri();
        if (given.isMissingNode() || given.isNull()) {
            return own;
        }
        OutputSpec output = new OutputSpec(given.asText());
        if (!OutputSpec.isValid(output.s3Uri()) || !output.s3Uri().startsWith(own)) {
            throw new InvalidSpecException(List.of(new SpecProblem(
                    "/output/s3Uri",
                    "'" + given.asText() + "' is outside what the run's pods may write: only the run's own prefix "
                            + own + " (RunOutputsRole: runs/<the run's namespace>/)",
                    "leave output.s3Uri out (the default is " + own + "), or give a prefix under it")));
        }
        return output.s3Uri();
    }

    /** The checkpoint to resume from, and the SHA-256 its run recorded when it kept it (none for one the sidecar synced). */
    record ResumeSource(CheckpointUri checkpoint, java.util.Optional<String> recordedSha256) {}

    /**
     * The checkpoint training.resumeFrom names: an earlier run's ID becomes the checkpoint its
     * outputs Job kept, with the digest it recorded. Refused before anything is created: an unknown
     * run, one that kept no checkpoint, a place outside the artifacts bucket's runs/ (what StartRun
     * may copy from), a checkpoint with nothing left to train.
     */
    private ResumeSource resumeSource(String resumeFrom, String runId, int epochs, boolean epochsDefaulted) {
        String pointer = "/training/resumeFrom";
        String uri = resumeFrom;
        java.util.Optional<String> recorded = java.util.Optional.empty();
        if (!CheckpointUri.isUri(resumeFrom)) {
            if (resumeFrom.equals(runId)) {
                throw new InvalidSpecException(List.of(new SpecProblem(
                        pointer,
                        "names this run itself",
                        "give the ID of an earlier run whose checkpoint to start from")));
            }
            RunRecord earlier = store.find(resumeFrom)
                    .orElseThrow(() -> new InvalidSpecException(List.of(new SpecProblem(
                            pointer,
                            "no run '" + resumeFrom + "' is known to this stack",
                            "give the ID of an earlier run (trainplane list shows them), or the s3:// URI of a"
                                    + " checkpoint-epoch-N.pt"))));
            RunOutputs outputs = earlier.outputs();
            if (outputs == null || outputs.checkpoint() == null) {
                // Its checkpoint sidecar may have synced some while it trained: say where to look.
                String synced = Json.read(earlier.specJson())
                                .path("output")
                                .path("s3Uri")
                                .asText("")
                        + io.trainplane.spec.OutputSpec.CHECKPOINTS_PREFIX;
                throw new InvalidSpecException(List.of(new SpecProblem(
                        pointer,
                        "run '" + resumeFrom + "' (" + earlier.status() + ") kept no checkpoint in S3"
                                + (outputs == null ? ": its outputs were never copied" : ""),
                        "give the s3:// URI of one of the checkpoints its training synced (aws s3 ls " + synced
                                + "), or resume from a run whose outputs list a checkpoint (trainplane status "
                                + resumeFrom + ")")));
            }
            uri = outputs.s3Uri() + outputs.checkpoint();
            recorded = java.util.Optional.ofNullable(outputs.checkpointSha256());
        }
        String allowed = "s3://" + artifactsBucket + "/runs/";
        CheckpointUri checkpoint = CheckpointUri.parse(uri)
                .filter(c -> c.uri().startsWith(allowed))
                .orElseThrow(() -> new InvalidSpecException(List.of(new SpecProblem(
                        pointer,
                        "'" + resumeFrom + "' is outside the runs of this stack (" + allowed + "*), which StartRun"
                                + " copies a checkpoint from into the run's own prefix",
                        "copy the checkpoint and its .sha256 under " + allowed + ", or give an earlier run's ID"))));
        checkpoint.nothingLeftToTrain(epochs, epochsDefaulted).ifPresent(p -> {
            throw new InvalidSpecException(List.of(p));
        });
        return new ResumeSource(checkpoint, recorded);
    }
}
