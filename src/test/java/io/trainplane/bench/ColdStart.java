package io.trainplane.bench;

import static io.trainplane.bench.ColdStartFigures.format;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.bench.ColdStartFigures.Sample;
import io.trainplane.core.Json;
import io.trainplane.workflow.ClassPreload;
import io.trainplane.workflow.LambdaArtifact;
import io.trainplane.workflow.LambdaFunction;
import io.trainplane.workflow.Pipeline;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Cold-start benchmark (DESIGN.md §9, issue 19): for every function, fresh JVMs that build the
 * handler and serve one invocation against local endpoints ({@link ColdStartEndpoints}), timed as
 * whole processes and alternated with the function's own baseline: a minimal handler that makes the
 * same AWS and Kubernetes calls with plain SDK and fabric8 code ({@link ColdStartBaselines}), from
 * the calls recorded in one invocation of the function (bench/ColdStartRecorder.java, {@link
 * KubernetesRecorder}), compiled against the same artifact and run the same way. Prints per
 * function the calls, the median wall time, the baseline's, their ratio (target ≤ 1.25), the ratio
 * to the one-PutItem reference (context) and the peak RSS (VmHWM, read from /proc/self/status as
 * the harness ends); and, from a process per round that runs the SnapStart priming before the
 * invocation, the primed invocation's own time (target ≤ 100 ms AWS-only, ≤ 250 ms Kubernetes) and
 * how long it waited for the endpoints, which is not its own.
 *
 * <p>{@code ./bench/run coldstart [--runs N] [--warmup W] [Function...]} (default 5 runs after 1
 * warm-up, every function). Functions run in pipeline order on one run ("coldstart"): a function's
 * first invocation leaves the state the next one works on (the run record, the EKS cluster in
 * moto, the Kubernetes objects); the recorded and measured ones repeat it, the idempotent path of a
 * Task that Step Functions retries. Skips, saying why, when moto_server is not on the PATH.
 */
public final class ColdStart {
    /** The Lambda functions' JVM options (template.yaml, Globals: JAVA_TOOL_OPTIONS). */
    static final List<String> JVM_OPTIONS = List.of("-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1");

    static final String RUN_ID = "coldstart";
    /** The reference handler of bench/ColdStartKubernetesFloor.java. */
    static final String FLOOR = "ColdStartKubernetesFloor";

    private static final long TIMEOUT_SECONDS = 120;

    /**
     * One function's figures: its cold starts, its own baseline's ({@code baseline}: the same AWS and
     * Kubernetes calls made by plain SDK and fabric8 code, {@link ColdStartBaselines}; {@code calls}
     * counts them), the one-PutItem reference's ({@code putItem}, context only), and its cold starts
     * with the SnapStart priming run between building the handler and the invocation ({@code primed};
     * empty when not measured), whose invocation stands for the first one after a snapshot restore.
     */
    record Row(
            String function,
            String artifact,
            String calls,
            List<Sample> function_,
            List<Sample> baseline,
            List<Sample> putItem,
            List<Sample> primed) {
        double functionMedian() {
            return median(function_, Sample::wallMillis);
        }

        double baselineMedian() {
            return median(baseline, Sample::wallMillis);
        }

        /** The target's ratio: the function over its own baseline. */
        double ratio() {
            return ColdStartFigures.ratio(functionMedian(), baselineMedian());
        }

        /** The function over the one-PutItem reference: context, not a target. */
        double putItemRatio() {
            return putItem.isEmpty()
                    ? Double.NaN
                    : ColdStartFigures.ratio(functionMedian(), median(putItem, Sample::wallMillis));
        }

        boolean served() {
            return function_.stream().allMatch(Sample::served)
                    && baseline.stream().allMatch(Sample::served)
                    && putItem.stream().allMatch(Sample::served)
                    && primed.stream().allMatch(Sample::served);
        }

        boolean kubernetes() {
            return Pipeline.function(function).artifact() == LambdaArtifact.KUBERNETES;
        }

        /** The primed invocations' median (the invocation's own time, endpoints' answers excluded); NaN when not measured. */
        double primedMedian() {
            return primed.isEmpty() ? Double.NaN : median(primed, Sample::ownInvocationMillis);
        }

        /** How long the endpoints took to answer a primed invocation (median). */
        double primedEndpointMedian() {
            return primed.isEmpty() ? Double.NaN : median(primed, Sample::endpointMillis);
        }

        boolean ratioPass() {
            return served() && ColdStartFigures.withinTarget(ratio());
        }

        /** Within its primed limit (100 ms AWS-only, 250 ms Kubernetes); a row without primed runs has none to miss. */
        boolean primedPass() {
            return served() && (primed.isEmpty() || ColdStartFigures.primedWithinTarget(primedMedian(), kubernetes()));
        }

        boolean pass() {
            return ratioPass() && primedPass();
        }

        private static double median(List<Sample> samples, java.util.function.ToLongFunction<Sample> figure) {
            return ColdStartFigures.median(
                    samples.stream().map(figure::applyAsLong).toList());
        }
    }

    private final Path root;
    private final Map<String, String> environment;
    private final KubernetesRecorder kubernetesRequests;
    private final ColdStartEndpoints endpoints;
    private final Path work;
    private final Map<String, Path> harnesses = new HashMap<>();
    private final Map<String, Path> recorders = new HashMap<>();
    private final Map<String, JsonNode> outputs = new HashMap<>();

    ColdStart(Path root, ColdStartEndpoints endpoints, Path work) {
        this.root = root;
        this.environment = endpoints.environment();
        this.kubernetesRequests = endpoints.kubernetesRequests();
        this.endpoints = endpoints;
        this.work = work;
    }

    /** The artifact a function ships in: the measured process's whole classpath, as in Lambda. */
    static Path artifact(Path root, String function) {
        return root.resolve("target")
                .resolve(Pipeline.function(function).artifact().jarName());
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        int runs = 5;
        int warmup = 1;
        List<String> only = new ArrayList<>();
        boolean classLists = false;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--class-lists" -> classLists = true;
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                default -> only.add(args[i]);
            }
        }
        List<String> functions = new ArrayList<>(
                Pipeline.FUNCTIONS.stream().map(LambdaFunction::name).toList());
        if (!only.isEmpty()) {
            functions.retainAll(only);
        }
        // Exits rather than returns: the exit code is the benchmark's verdict (1 when a row misses).
        if (classLists) {
            // Every function, in pipeline order: each artifact's list is what all its functions load.
            writeClassLists(
                    root, Pipeline.FUNCTIONS.stream().map(LambdaFunction::name).toList());
            System.exit(0);
        }
        Optional<List<Row>> rows = run(root, functions, runs, warmup, function -> artifact(root, function)
                .toAbsolutePath()
                .toString());
        System.exit(rows.isPresent() && !rows.get().stream().allMatch(Row::pass) ? 1 : 0);
    }

    /**
     * Measures these functions, printing a line for each and the summary; empty when skipped
     * (no moto_server). {@code classpath} gives each function's artifact (tests hand in their own).
     */
    static Optional<List<Row>> run(
            Path root, List<String> functions, int runs, int warmup, Function<String, String> classpath)
            throws Exception {
        Optional<Path> moto = ColdStartEndpoints.moto();
        if (moto.isEmpty()) {
            System.out.println("coldstart: SKIPPED: " + ColdStartEndpoints.NO_MOTO);
            return Optional.empty();
        }
        Path work = Files.createTempDirectory("coldstart-");
        List<Row> rows = new ArrayList<>();
        try (ColdStartEndpoints endpoints = new ColdStartEndpoints(moto.get())) {
            ColdStart bench = new ColdStart(root, endpoints, work);
            System.out.println(format(
                    "coldstart: %d function(s), %d run(s) each after %d warm-up, alternated with the function's own"
                            + " baseline (its recorded AWS and Kubernetes calls, plain SDK and fabric8) and the one-PutItem"
                            + " reference; JVM options %s; %s",
                    functions.size(), runs, warmup, String.join(" ", JVM_OPTIONS), Runtime.version()));
            System.out.println(format(
                    "%-18s %-32s %-22s %11s %9s %9s %11s %6s %8s %8s  %-6s %9s %9s %9s %-8s  %s",
                    "function",
                    "artifact",
                    "calls",
                    "function ms",
                    "built ms",
                    "served ms",
                    "baseline ms",
                    "ratio",
                    "/PutItem",
                    "peak MB",
                    "target",
                    "invoke ms",
                    "primed ms",
                    "waited ms",
                    "primed",
                    "invocation"));
            for (String function : functions) {
                Row row = bench.measure(function, classpath.apply(function), runs, warmup);
                rows.add(row);
                System.out.println(line(row));
            }
            Optional<String> kubernetesFunction = functions.stream()
                    .filter(f -> Pipeline.function(f).artifact() == LambdaArtifact.KUBERNETES)
                    .findFirst();
            if (kubernetesFunction.isPresent()) {
                System.out.println(bench.floor(classpath.apply(kubernetesFunction.get()), runs));
            }
        } finally {
            deleteTree(work);
        }
        System.out.println(summary(rows));
        return Optional.of(rows);
    }

    /**
     * {@code ./bench/run class-lists}: for each artifact, the classes its functions' primed
     * invocations load after SnapStart priming (less the list itself), written to
     * src/main/resources/snapstart/&lt;artifact&gt;.classes for io.trainplane.workflow.ClassPreload.
     * Every function runs once first, in pipeline order, as in the measurement.
     */
    static void writeClassLists(Path root, List<String> functions) throws Exception {
        Optional<Path> moto = ColdStartEndpoints.moto();
        if (moto.isEmpty()) {
            System.out.println("class-lists: SKIPPED: " + ColdStartEndpoints.NO_MOTO);
            return;
        }
        Path work = Files.createTempDirectory("class-lists-");
        try (ColdStartEndpoints endpoints = new ColdStartEndpoints(moto.get())) {
            ColdStart bench = new ColdStart(root, endpoints, work);
            Map<LambdaArtifact, Set<String>> lists = new java.util.EnumMap<>(LambdaArtifact.class);
            for (String function : functions) {
                String artifact = artifact(root, function).toAbsolutePath().toString();
                Path input = work.resolve(function + ".json");
                Files.writeString(input, Json.write(ColdStartInputs.input(function, RUN_ID, root, bench.outputs)));
                String handler = Pipeline.function(function).handlerClass();
                bench.invoke(artifact, handler, input, false, List.of(), Map.of(), List.of())
                        .output()
                        .ifPresent(o -> bench.outputs.put(function, o));
                // The measured invocations repeat the first (a retry's path) after a few others have
                // (the twin's Cloud Control moves on as it is polled): the list is what two primed
                // repeats loaded after two plain ones, so a path one repeat did not take is not missed.
                for (int repeat = 0; repeat < 2; repeat++) {
                    bench.invoke(artifact, handler, input, false, List.of(), Map.of(), List.of());
                }
                Set<String> classes =
                        lists.computeIfAbsent(Pipeline.function(function).artifact(), a -> new LinkedHashSet<>());
                int before = classes.size();
                for (int repeat = 0; repeat < 2; repeat++) {
                    Path log = work.resolve(function + "-" + repeat + ".class-load.log");
                    bench.invoke(
                            artifact,
                            handler,
                            input,
                            true,
                            List.of(),
                            Map.of(),
                            List.of("-Xlog:class+load:file=" + log, "-Dtrainplane.snapstart.skipClassList=true"));
                    classes.addAll(ColdStartFigures.loadedAfterPriming(Files.readAllLines(log)));
                }
                System.out.println(format("class-lists: %-18s %4d classes more", function, classes.size() - before));
            }
            for (Map.Entry<LambdaArtifact, Set<String>> list : lists.entrySet()) {
                Path file = root.resolve("src/main/resources").resolve(ClassPreload.resource(list.getKey()));
                Files.createDirectories(file.getParent());
                Files.writeString(
                        file,
                        "# The classes the first invocations of "
                                + list.getKey().jarName()
                                + "'s functions load after SnapStart priming"
                                + " (./bench/run class-lists; io.trainplane.workflow.ClassPreload).\n"
                                + String.join("\n", list.getValue()) + "\n");
                System.out.println(
                        format("class-lists: %4d classes -> %s", list.getValue().size(), root.relativize(file)));
            }
        } finally {
            deleteTree(work);
        }
    }

    /**
     * The reference {@code bench/ColdStartKubernetesFloor.java} (the baseline's PutItem and one
     * Kubernetes GET through fabric8) against the baseline, from the Kubernetes artifact: the least
     * ratio a function that reaches Kubernetes through fabric8 can have. Not a target; printed.
     */
    String floor(String artifact, int runs) throws Exception {
        Path input = work.resolve("floor.json");
        Files.writeString(input, "{}");
        List<Sample> floor = new ArrayList<>();
        List<Sample> baseline = new ArrayList<>();
        invoke(artifact, FLOOR, input, false, List.of(), Map.of(), List.of());
        for (int i = 0; i < runs; i++) {
            baseline.add(invoke(artifact, "baseline", input, false, List.of(), Map.of(), List.of())
                    .sample());
            floor.add(invoke(artifact, FLOOR, input, false, List.of(), Map.of(), List.of())
                    .sample());
        }
        if (!floor.stream().allMatch(Sample::served)) {
            return "reference: the Kubernetes GET through fabric8 did not serve: "
                    + floor.getLast().outcome();
        }
        double f =
                ColdStartFigures.median(floor.stream().map(Sample::wallMillis).toList());
        double b = ColdStartFigures.median(
                baseline.stream().map(Sample::wallMillis).toList());
        return format(
                "reference: the baseline's PutItem plus one Kubernetes GET through fabric8 (JDK HTTP client), from"
                        + " the Kubernetes artifact: %.0f ms against %.0f ms, ratio %.2f, the floor of the Kubernetes functions'"
                        + " ratios while they use fabric8",
                f, b, ColdStartFigures.ratio(f, b));
    }

    Row measure(String function, String artifact, int runs, int warmup) throws Exception {
        Path input = work.resolve(function + ".json");
        Files.writeString(input, Json.write(ColdStartInputs.input(function, RUN_ID, root, outputs)));
        String handler = Pipeline.function(function).handlerClass();
        // The first invocation does the function's work for the steps after it; the measured ones
        // repeat it (the idempotent path of a retried Task), so the recorded one is a repeat too.
        invoke(artifact, handler, input, false, List.of(), Map.of(), List.of())
                .output()
                .ifPresent(o -> outputs.put(function, o));
        Path record = work.resolve(function + ".calls");
        kubernetesRequests.record();
        Invocation recorded = invoke(
                artifact,
                handler,
                input,
                false,
                List.of(recorder(artifact)),
                Map.of("COLDSTART_RECORD", record.toString()),
                List.of());
        List<KubernetesRecorder.Request> kubernetes = kubernetesRequests.recording();
        List<ColdStartBaselines.AwsCall> aws = Files.exists(record)
                ? Files.readAllLines(record).stream()
                        .map(ColdStartBaselines.AwsCall::parse)
                        .toList()
                : List.of();
        String ownBaseline = ColdStartBaselines.className(function);
        List<Path> baselineClasses = List.of(compileBaseline(
                artifact,
                ownBaseline,
                ColdStartBaselines.source(
                        function,
                        aws,
                        kubernetes,
                        recorded.output().map(Json::write).orElse("{}"))));
        for (int i = 0; i < warmup; i++) {
            invoke(artifact, ownBaseline, input, false, baselineClasses, Map.of(), List.of());
            invoke(artifact, "baseline", input, false, List.of(), Map.of(), List.of());
        }
        List<Sample> measured = new ArrayList<>();
        List<Sample> baseline = new ArrayList<>();
        List<Sample> putItem = new ArrayList<>();
        List<Sample> primed = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            // Alternated, baseline first on even runs: a slow phase of the shared machine hits both.
            if (i % 2 == 0) {
                baseline.add(invoke(artifact, ownBaseline, input, false, baselineClasses, Map.of(), List.of())
                        .sample());
                measured.add(invoke(artifact, handler, input, false, List.of(), Map.of(), List.of())
                        .sample());
            } else {
                measured.add(invoke(artifact, handler, input, false, List.of(), Map.of(), List.of())
                        .sample());
                baseline.add(invoke(artifact, ownBaseline, input, false, baselineClasses, Map.of(), List.of())
                        .sample());
            }
            putItem.add(invoke(artifact, "baseline", input, false, List.of(), Map.of(), List.of())
                    .sample());
            primed.add(invoke(artifact, handler, input, true, List.of(), Map.of(), List.of())
                    .sample());
        }
        String label = artifact.contains(java.io.File.pathSeparator)
                ? "(classpath)"
                : Path.of(artifact).getFileName().toString();
        return new Row(function, label, ColdStartBaselines.calls(aws, kubernetes), measured, baseline, putItem, primed);
    }

    record Invocation(Sample sample, Optional<JsonNode> output) {}

    private Invocation invoke(
            String artifact,
            String handler,
            Path input,
            boolean primed,
            List<Path> moreClasses,
            Map<String, String> moreEnvironment,
            List<String> moreJvmOptions)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JVM_OPTIONS);
        command.addAll(moreJvmOptions);
        // For looking into a function's start (-Xlog:class+load:file=..., say); never set for the figures.
        String extra = System.getProperty("coldstart.childOptions", "");
        if (!extra.isBlank()) {
            command.addAll(List.of(extra.strip().split(" +")));
        }
        command.add("-cp");
        StringBuilder classpath =
                new StringBuilder(artifact).append(java.io.File.pathSeparator).append(harness(artifact));
        moreClasses.forEach(dir -> classpath.append(java.io.File.pathSeparator).append(dir));
        command.add(classpath.toString());
        command.add("ColdStartHarness");
        command.add(handler);
        command.add(input.toString());
        command.add(Long.toString(System.currentTimeMillis()));
        if (primed) {
            command.add("primed");
        }
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.keySet().retainAll(List.of("PATH", "HOME", "LANG", "TMPDIR"));
        env.putAll(environment);
        env.putAll(moreEnvironment);
        Path err = work.resolve(handler.substring(handler.lastIndexOf('.') + 1) + ".stderr");
        builder.redirectError(err.toFile());
        long endpointsBefore = endpoints.endpointNanos();
        long start = System.nanoTime();
        Process process = builder.start();
        // The clock stops when the harness has printed its last line, the response: Lambda never
        // exits the JVM after an invocation, and a JVM's exit waits up to ~300 ms for threads
        // blocked in native code (the selector thread of the JDK HTTP client fabric8 uses).
        StringBuilder stdout = new StringBuilder();
        long wall = -1;
        try (BufferedReader lines = process.inputReader()) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                stdout.append(line).append('\n');
                if (line.startsWith("vmhwm ")) {
                    wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    break;
                }
            }
        }
        if (wall < 0) {
            wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        int exit = process.exitValue();
        Sample sample = ColdStartFigures.parse(stdout.toString(), wall, exit)
                .withEndpointMillis(TimeUnit.NANOSECONDS.toMillis(endpoints.endpointNanos() - endpointsBefore));
        if (!sample.served()) {
            System.out.println(
                    "  " + handler + " did not serve its invocation (exit " + exit + "): " + sample.result() + "\n  "
                            + Files.readString(err)
                                    .lines()
                                    .limit(Integer.getInteger("coldstart.traceLines", 12))
                                    .reduce((a, b) -> a + "\n  " + b)
                                    .orElse(""));
        }
        Optional<JsonNode> output = stdout.toString()
                .lines()
                .filter(l -> l.startsWith("output {"))
                .findFirst()
                .map(l -> Json.read(l.substring("output ".length())));
        return new Invocation(sample, output);
    }

    /** The harness compiled against this artifact, once, into its own directory (never into a jar). */
    private Path harness(String artifact) throws IOException {
        Path dir = harnesses.get(artifact);
        if (dir == null) {
            List<Path> sources = new ArrayList<>(List.of(root.resolve("bench/ColdStartHarness.java")));
            if (holdsFabric8(artifact)) {
                sources.add(root.resolve("bench/ColdStartKubernetesFloor.java"));
            }
            dir = compile(artifact, "harness-" + harnesses.size(), sources);
            harnesses.put(artifact, dir);
        }
        return dir;
    }

    /**
     * bench/ColdStartRecorder.java compiled against this artifact, registered as a global SDK
     * interceptor: on the classpath of the recording invocation only.
     */
    private Path recorder(String artifact) throws IOException {
        Path dir = recorders.get(artifact);
        if (dir == null) {
            dir = compile(
                    artifact, "recorder-" + recorders.size(), List.of(root.resolve("bench/ColdStartRecorder.java")));
            Path interceptors = dir.resolve("software/amazon/awssdk/global/handlers/execution.interceptors");
            Files.createDirectories(interceptors.getParent());
            Files.writeString(interceptors, "ColdStartRecorder\n");
            recorders.put(artifact, dir);
        }
        return dir;
    }

    /** A function's own baseline ({@link ColdStartBaselines}) compiled against its artifact. */
    private Path compileBaseline(String artifact, String className, String source) throws IOException {
        Path sources = Files.createDirectories(work.resolve("sources-" + className));
        Path file = sources.resolve(className + ".java");
        Files.writeString(file, source);
        return compile(artifact, "classes-" + className, List.of(file));
    }

    private Path compile(String classpath, String name, List<Path> sources) throws IOException {
        Path dir = Files.createDirectories(work.resolve(name));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("the cold-start harness is compiled at run time: run on a JDK, not a JRE");
        }
        List<String> options = new ArrayList<>(
                List.of("--release", "21", "-proc:none", "-nowarn", "-cp", classpath, "-d", dir.toString()));
        sources.forEach(source -> options.add(source.toString()));
        int status = javac.run(null, null, null, options.toArray(String[]::new));
        if (status != 0) {
            throw new IllegalStateException(sources + " did not compile against " + classpath);
        }
        return dir;
    }

    /** Whether the classpath holds fabric8's client (the Kubernetes artifact, or a test's classpath). */
    private static boolean holdsFabric8(String classpath) throws IOException {
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)
                    ? Files.exists(path.resolve("io/fabric8/kubernetes/client/KubernetesClient.class"))
                    : entry.endsWith(".jar") && jarHolds(path, "io/fabric8/kubernetes/client/KubernetesClient.class")) {
                return true;
            }
        }
        return false;
    }

    private static boolean jarHolds(Path jar, String entry) throws IOException {
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            return zip.getEntry(entry) != null;
        }
    }

    static String line(Row row) {
        Sample last = row.function_().getLast();
        double built = ColdStartFigures.median(
                row.function_().stream().map(Sample::builtMillis).toList());
        double served = ColdStartFigures.median(
                row.function_().stream().map(Sample::doneMillis).toList());
        long rss = row.function_().stream().mapToLong(Sample::peakRssKb).max().orElse(-1);
        String target = !row.served() ? "FAIL" : row.ratioPass() ? "PASS" : "FAIL";
        String primedTarget = !row.served()
                ? "FAIL"
                : row.primedPass() ? "PASS" : format("FAIL>%d", ColdStartFigures.primedLimitMillis(row.kubernetes()));
        double invoke = ColdStartFigures.median(
                row.function_().stream().map(Sample::invocationMillis).toList());
        String primed = row.primed().isEmpty() ? "-" : format("%.0f", row.primedMedian());
        String waited = row.primed().isEmpty() ? "-" : format("%.0f", row.primedEndpointMedian());
        return format(
                "%-18s %-32s %-22s %11.0f %9.0f %9.0f %11.0f %6.2f %8.2f %8.1f  %-6s %9.0f %9s %9s %-8s  %s",
                row.function(),
                row.artifact(),
                row.calls(),
                row.functionMedian(),
                built,
                served,
                row.baselineMedian(),
                row.ratio(),
                row.putItemRatio(),
                rss / 1024.0,
                target,
                invoke,
                primed,
                waited,
                primedTarget,
                row.served() ? last.outcome() : "did not serve: " + last.outcome());
    }

    static String summary(List<Row> rows) {
        long pass = rows.stream().filter(Row::pass).count();
        List<String> slow = rows.stream()
                .filter(r -> r.served() && !r.ratioPass())
                .map(Row::function)
                .toList();
        List<String> slowPrimed = rows.stream()
                .filter(r -> r.served() && !r.primedPass())
                .map(Row::function)
                .toList();
        List<String> broken =
                rows.stream().filter(r -> !r.served()).map(Row::function).toList();
        Optional<Row> worst = rows.stream().filter(Row::served).max((a, b) -> Double.compare(a.ratio(), b.ratio()));
        long baselineRss = rows.stream()
                .flatMap(r -> r.baseline().stream())
                .mapToLong(Sample::peakRssKb)
                .max()
                .orElse(-1);
        long functionRss = rows.stream()
                .flatMap(r -> r.function_().stream())
                .mapToLong(Sample::peakRssKb)
                .max()
                .orElse(-1);
        return format(
                "coldstart: %d of %d PASS (ratio ≤ %.2f, primed ≤ %d ms AWS-only / %d ms Kubernetes)%s%s%s; worst ratio %s;"
                        + " peak RSS %.1f MB (baseline %.1f MB)",
                pass,
                rows.size(),
                ColdStartFigures.TARGET_RATIO,
                ColdStartFigures.PRIMED_AWS_MILLIS,
                ColdStartFigures.PRIMED_KUBERNETES_MILLIS,
                slow.isEmpty() ? "" : "; over the target: " + String.join(", ", slow),
                slowPrimed.isEmpty() ? "" : "; primed over its limit: " + String.join(", ", slowPrimed),
                broken.isEmpty() ? "" : "; FAILED to serve: " + String.join(", ", broken),
                worst.map(r -> format("%.2f (%s)", r.ratio(), r.function())).orElse("-"),
                functionRss / 1024.0,
                baselineRss / 1024.0);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }
}
