package io.trainplane.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.LambdaArtifact;
import io.trainplane.workflow.LambdaFunction;
import io.trainplane.workflow.Pipeline;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every function runs from its own artifact alone, as Lambda runs it: a class loader over only
 * that jar (its parent the platform class loader, so nothing of the test classpath leaks in), the
 * handler built with its no-argument constructor from the environment, and invoked with a real
 * step state. The environment (set by the pom's {@code lambda-artifacts} execution, which runs
 * after packaging) points the SDK at a closed local port, so each function gets as far as its first
 * AWS call and fails there with the error the state machine retries on; a missing class anywhere on
 * the way is a {@link LinkageError} instead, and fails the test.
 *
 * <p>Most of each function's time is its SDK retrying the closed port with backoff, so the
 * functions run concurrently (the pom's execution enables JUnit's parallel mode): each has its own
 * class loader and sets only its own thread's context loader, and the functions touch no
 * JVM-wide state.
 */
@Execution(ExecutionMode.CONCURRENT)
class LambdaArtifactsTest {
    static final String RUN_ID = "quickstart";

    static List<String> functions() {
        return Pipeline.FUNCTIONS.stream().map(LambdaFunction::name).toList();
    }

    static Path jar(String function) {
        return Path.of("target", Pipeline.function(function).artifact().jarName());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("functions")
    void runsFromItsOwnArtifactAlone(String function) throws Exception {
        assumeThat(System.getenv("TRAINPLANE_ARTIFACT_CHECK"))
                .as("runs in the pom's lambda-artifacts execution, after the jars are built")
                .isNotNull();
        Path jar = jar(function);
        assertThat(jar)
                .as("built by the shade execution of "
                        + Pipeline.function(function).artifact())
                .exists();

        Throwable outcome;
        boolean mapperLoaded;
        try (ArtifactLoader loader = new ArtifactLoader(jar)) {
            // As in Lambda, the function's loader is the context loader: service lookups (fabric8's
            // HTTP client, the SDK's) must not reach the test classpath.
            Thread.currentThread().setContextClassLoader(loader);
            Class<?> handlerClass = Class.forName("io.trainplane.functions." + function, true, loader);
            assertThat(handlerClass.getClassLoader()).isSameAs(loader);
            outcome = invoke(handlerClass, loader, input(function));
            mapperLoaded = loader.loaded("com.fasterxml.jackson.databind.ObjectMapper");
        } finally {
            Thread.currentThread().setContextClassLoader(LambdaArtifactsTest.class.getClassLoader());
        }
        for (Throwable t = outcome; t != null; t = t.getCause()) {
            if (t instanceof Error error) {
                throw new AssertionError(function + " does not run from " + jar + " alone", error);
            }
        }
        // It got as far as AWS: refused, classified as retryable, by the workflow's own classes.
        assertThat(outcome).as(function + " from " + jar).isNotNull();
        assertThat(outcome.getClass().getName())
                .as(function + ": " + outcome)
                .isEqualTo("io.trainplane.core.TransientException");
        assertThat(outcome.getMessage()).contains("AWS could not be reached");
        // Building an ObjectMapper costs a cold start about 100 ms: only the functions that check a
        // spec against its schema (the validator maps with one) may build one on the way to AWS.
        if (!List.of("StartRun", "StartScheduledRun").contains(function)) {
            assertThat(mapperLoaded)
                    .as(function + " loaded Jackson's ObjectMapper")
                    .isFalse();
        }
    }

    /** The function's class loader, which says what it has loaded. */
    static final class ArtifactLoader extends URLClassLoader {
        ArtifactLoader(Path jar) throws IOException {
            super(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String className) {
            return findLoadedClass(className) != null;
        }
    }

    /** What the function threw (null when it returned), through the jar's own Lambda interfaces. */
    static Throwable invoke(Class<?> handlerClass, ClassLoader loader, ObjectNode input) throws Exception {
        Object handler = handlerClass.getConstructor().newInstance();
        Class<?> context = Class.forName("com.amazonaws.services.lambda.runtime.Context", false, loader);
        Method handle = handlerClass.getMethod("handleRequest", InputStream.class, OutputStream.class, context);
        try {
            handle.invoke(
                    handler,
                    new ByteArrayInputStream(Json.write(input).getBytes(StandardCharsets.UTF_8)),
                    new ByteArrayOutputStream(),
                    null);
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        }
    }

    /** The state the state machine hands each function (the quickstart run after StartRun). */
    static ObjectNode input(String function) throws IOException {
        String spec = Files.readString(Path.of("examples/quickstart.json"));
        ObjectNode state = Json.object()
                .put("runId", RUN_ID)
                .put("executionName", RUN_ID)
                .put("executionArn", "arn:aws:states:us-east-1:000000000000:execution:TrainingPipeline:" + RUN_ID);
        return switch (function) {
            case "StartRun" -> state.set("spec", Json.read(spec));
            case "StartScheduledRun" ->
                Json.object()
                        .put("series", "nightly")
                        .put("scheduledTime", "2026-11-22T03:00:00Z")
                        .set("spec", Json.read(spec));
            case "SafetyNet" ->
                (ObjectNode) Json.read(Files.readString(Path.of("events/step-functions-execution-status-change.json")));
            case "Janitor" -> Json.object();
            default -> state.put("jobName", "quickstart-evaluation").set("spec", RunSpecs.normalize(spec));
        };
    }

    @Test
    void eachArtifactHoldsTheHandlersOfItsFunctionsAndTheAwsOneNoKubernetesClient() throws IOException {
        assumeThat(System.getenv("TRAINPLANE_ARTIFACT_CHECK"))
                .as("runs in the pom's lambda-artifacts execution, after the jars are built")
                .isNotNull();
        for (String function : functions()) {
            try (ZipFile zip = new ZipFile(jar(function).toFile())) {
                assertThat(zip.getEntry("io/trainplane/functions/" + function + ".class"))
                        .as(function)
                        .isNotNull();
            }
        }
        List<String> kubernetes = new ArrayList<>();
        try (ZipFile zip =
                new ZipFile(Path.of("target", LambdaArtifact.AWS.jarName()).toFile())) {
            zip.stream()
                    .map(e -> e.getName())
                    .filter(n -> n.startsWith("io/fabric8/")
                            || n.startsWith("org/yaml/")
                            || n.startsWith("io/trainplane/kubernetes/"))
                    .forEach(kubernetes::add);
        }
        assertThat(kubernetes).isEmpty();
    }

    /**
     * What the pom's lambda-kubernetes execution leaves out of the Kubernetes artifact, because
     * none of its functions uses it: the spec's schema validator (only StartRun and
     * StartScheduledRun validate), Step Functions (only SafetyNet, Janitor and StartScheduledRun
     * start executions), STS (the CLI's profile credentials) and FSx (CreateVolume and CheckVolume). Project classes that name them
     * are never loaded by those functions, which {@link #runsFromItsOwnArtifactAlone} and
     * {@code ./bench/run coldstart} (every Kubernetes function, end to end, from the jar) check.
     */
    static final List<String> LEFT_OUT_OF_KUBERNETES = List.of(
            "com/networknt/",
            "com/ethlo/",
            "software/amazon/awssdk/services/sfn/",
            "software/amazon/awssdk/services/sts/",
            // FSx: created and checked by AWS functions; Teardown deletes it over FsxJsonClient.
            "software/amazon/awssdk/services/fsx/",
            // S3: only StartRun, an AWS function, copies a checkpoint to resume from.
            "software/amazon/awssdk/services/s3/",
            "io/trainplane/aws/s3/");

    /**
     * The Kubernetes artifact's deeper half, which a function meets only past its first AWS call:
     * every project class links with every type its signatures name (but what the artifact leaves
     * out on purpose, and never in the project's kubernetes package), and fabric8 finds its JDK
     * HTTP client (a service the shade plugin must have merged) and builds a client.
     */
    @Test
    void theKubernetesArtifactLinksEveryProjectClassAndBuildsAKubernetesClient() throws Exception {
        assumeThat(System.getenv("TRAINPLANE_ARTIFACT_CHECK"))
                .as("runs in the pom's lambda-artifacts execution, after the jars are built")
                .isNotNull();
        Path jar = Path.of("target", LambdaArtifact.KUBERNETES.jarName());
        List<String> classes;
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            classes = zip.stream()
                    .map(e -> e.getName())
                    .filter(n -> n.startsWith("io/trainplane/")
                            && n.endsWith(".class")
                            && !n.startsWith("io/trainplane/bench/"))
                    .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                    .toList();
        }
        assertThat(classes).contains("io.trainplane.kubernetes.EksClusterAccess");
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(loader);
            List<String> namingLeftOut = new ArrayList<>();
            for (String name : classes) {
                Class<?> type = Class.forName(name, false, loader);
                try {
                    type.getDeclaredMethods();
                    type.getDeclaredFields();
                    type.getDeclaredConstructors();
                } catch (NoClassDefFoundError e) {
                    String missing = String.valueOf(e.getMessage());
                    if (LEFT_OUT_OF_KUBERNETES.stream().noneMatch(missing::startsWith)) {
                        throw new AssertionError(name + " does not link in " + jar, e);
                    }
                    namingLeftOut.add(name);
                }
            }
            assertThat(namingLeftOut)
                    .as("Kubernetes code naming what the Kubernetes artifact leaves out")
                    .noneMatch(name -> name.startsWith("io.trainplane.kubernetes."))
                    .contains("io.trainplane.clients.Clients");
            // fabric8 reflects on these as it reads every response (Jackson TypeReferences created in
            // their methods): the types their signatures name must be in the jar, even of kinds no
            // function uses (the pom keeps extensions' DeploymentRollback for OperationSupport).
            for (String reflected : List.of(
                    "io.fabric8.kubernetes.client.dsl.internal.OperationSupport",
                    "io.fabric8.kubernetes.client.dsl.internal.BaseOperation",
                    "io.fabric8.kubernetes.client.utils.KubernetesSerialization")) {
                Class.forName(reflected, false, loader).getDeclaredMethods();
            }
            Class<?> builder = Class.forName("io.fabric8.kubernetes.client.KubernetesClientBuilder", true, loader);
            Object client =
                    builder.getMethod("build").invoke(builder.getConstructor().newInstance());
            Object http = client.getClass().getMethod("getHttpClient").invoke(client);
            assertThat(http.getClass().getName()).startsWith("io.fabric8.kubernetes.client.jdkhttp.");
            ((AutoCloseable) client).close();
        } finally {
            Thread.currentThread().setContextClassLoader(LambdaArtifactsTest.class.getClassLoader());
        }
    }
}
