package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.ModelWarmup;
import io.trainplane.aws.OfflineHttpClient;
import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.core.Json;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.StepEntry;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.crac.Context;
import org.crac.Resource;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * A function's SnapStart hooks. Before the snapshot, the code every invocation runs is loaded and
 * warmed without side effects: a step's state read and written, the run store's DynamoDB requests
 * and what the function's declaration says to prime ({@link Priming}: the schema validation, a
 * request of each service it calls, the way to the cluster), each request marshalled and signed
 * with throwaway credentials and answered by an {@link OfflineHttpClient} (none reaches AWS; no
 * credential, token or time is kept), {@link #ROUNDS} times; then the function's own clients of
 * those services are built, and the classes its first real invocation still loaded are loaded
 * ({@link ClassPreload}). After the restore, the clients drop what must be fresh.
 */
public final class SnapStartHooks implements Resource {
    private static final Logger LOG = Logger.getLogger(SnapStartHooks.class.getName());
    static final String RUN_ID = "snapstart-priming";
    /** The state machine the priming StartExecution names (it never leaves the function). */
    static final String STATE_MACHINE = "arn:aws:states:us-east-1:000000000000:stateMachine:snapstart-priming";
    /**
     * How many times priming makes its requests: enough for C1 to compile the SDK's request and
     * response pipeline (a method is compiled after ~200 invocations; a round makes 10-40 requests).
     */
    static final int ROUNDS = 30;

    /**
     * The spec of a step's state as StartRun leaves it (normalized: the quickstart example with
     * every default); SnapStartHooksTest holds it to what RunSpecs.normalize makes of it.
     */
    static final String SAMPLE_SPEC =
            """
            {"runId":"snapstart-priming","cluster":{"mode":"create","kubernetesVersion":"1.35","nodeGroup":\
            {"instanceType":"c5.2xlarge","nodes":2,"gpusPerNode":0,"capacityType":"ON_DEMAND","efa":false,"diskGiB":30}},\
            "volume":{"type":"efs"},"data":{"source":"synthetic","syntheticSamples":2000},"training":\
            {"launcher":"indexed-job","image":"pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime","workers":2,\
            "procsPerWorker":1,"epochs":10,"batchSize":128,"learningRate":0.01,"cpu":"6","memory":"12Gi",\
            "gpusPerWorker":0,"maxRestarts":3,"maxInterruptions":3,"timeoutMinutes":240},"evaluation":{"metric":"accuracy","min":0.6},\
            "output":{"s3Uri":"s3://trainplane-artifacts-priming/runs/tp-snapstart-priming/"},\
            "cleanup":{"keepCluster":false,"keepVolume":false},"maxRunHours":4}""";

    private final String function;
    private final Clients clients;
    private final Set<Priming> priming;
    private final String classList;

    SnapStartHooks(LambdaFunction function, Clients clients) {
        this.function = function.name();
        this.clients = clients;
        this.priming = function.priming();
        this.classList = ClassPreload.resource(function.artifact());
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        try {
            prime(ROUNDS);
        } catch (RuntimeException e) {
            // A colder start is no reason to refuse the snapshot (and the version).
            LOG.log(Level.WARNING, "priming " + function + " failed; the snapshot is taken unprimed", e);
        }
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        clients.afterRestore();
    }

    /**
     * Everything priming does, its requests {@code rounds} times; throws what fails (tests call it
     * directly). Returns what answered the last round's requests.
     */
    OfflineHttpClient prime(int rounds) {
        OfflineHttpClient answered = null;
        for (int round = 0; round < rounds; round++) {
            answered = primeRequests();
        }
        clients.dynamoDb();
        priming.forEach(request -> request.buildClients(clients));
        Failures.classify(new IllegalStateException("priming"));
        // A metrics line rendered, not printed: a snapshot emits nothing.
        EmbeddedMetrics.line(Instant.EPOCH, Map.of("Priming", 1.0), Map.of(), Map.of("runId", RUN_ID));
        primeJdk();
        ClassPreload.load(classList);
        return answered;
    }

    /**
     * A step's state read and written, the run store's requests and the function's own (its
     * {@link Priming}), each answered offline; the store's reads answer what it wrote.
     */
    private OfflineHttpClient primeRequests() {
        JsonNode state =
                Json.object().put("runId", RUN_ID).put("executionName", RUN_ID).set("spec", Json.read(SAMPLE_SPEC));
        JsonNode read = Json.read(Json.write(state));
        RunContext sample = RunContext.from(read);
        Json.write(Json.object().put("done", false).put("waitSeconds", 15));

        OfflineHttpClient answered = new OfflineHttpClient();
        AwsClients offline = AwsClients.offline(clients.settings(), answered);
        RunStore store = StepWiring.runStore(offline);
        store.create(RUN_ID, Json.write(read.path("spec")), "arn:aws:states:priming");
        Priming.readBackLastWrite(answered);
        store.find(RUN_ID);
        store.update(RUN_ID, run -> run.withMetric("priming", 1.0));
        // A timeline as the run's last steps read it: a step of every function.
        Instant at = Instant.EPOCH;
        for (LambdaFunction step : Pipeline.FUNCTIONS) {
            store.addStep(RUN_ID, new StepEntry(step.name(), at, at.plusSeconds(60), "ok", null));
            at = at.plusSeconds(60);
        }
        Priming.readBackTimeline(answered, Pipeline.FUNCTIONS.size());
        store.steps(RUN_ID);
        ModelWarmup.warm(QueryResponse.builder());
        for (Priming request : priming) {
            request.prime(sample, offline, answered);
        }
        return answered;
    }

    /**
     * The JDK's side of a first real invocation, which the offline requests never reach: the
     * HttpURLConnection class, the java.util.logging its connect asks whether to log to, and a
     * socket, made and dropped without connecting; a log record and numbers formatted as a warning
     * and a cost line are (the locale data they load), printed nowhere.
     */
    private static void primeJdk() {
        Logger.getLogger("sun.net.www.protocol.http.HttpURLConnection").isLoggable(Level.FINE);
        new java.util.logging.SimpleFormatter().format(new java.util.logging.LogRecord(Level.WARNING, "priming"));
        String.format("%s %d %.2f", "priming", 1, 1.0);
        String.format(java.util.Locale.ROOT, "%s %d %.2f", "priming", 1, 1.0);
        try {
            ((java.net.HttpURLConnection)
                            java.net.URI.create("http://127.0.0.1/").toURL().openConnection())
                    .disconnect();
            new java.net.Socket().close();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
