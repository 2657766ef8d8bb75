package io.trainplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of io.trainplane, checked on the compiled classes (target/classes) with jdeps, the
 * JDK's class dependency analyser: the library (core, spec, runs, aws, kubernetes, clients) below
 * the workflow steps, below the Lambda handlers (functions), the local twin (local) and the CLI;
 * the benchmarks (bench) are test classes on top of everything; no cycle among packages. A failure
 * names the class edges that break the rule. jdeps reads bytecode, so a type named only in Javadoc
 * or a constant the compiler inlined is no dependency here.
 */
class ArchitectureTest {
    private static final String PROJECT = "io.trainplane.";

    enum Layer {
        LIBRARY,
        WORKFLOW,
        FUNCTIONS,
        LOCAL,
        CLI,
        BENCH
    }

    /** The layers each layer may use besides itself. */
    private static final Map<Layer, Set<Layer>> MAY_USE = Map.of(
            Layer.LIBRARY, EnumSet.noneOf(Layer.class),
            Layer.WORKFLOW, EnumSet.of(Layer.LIBRARY),
            Layer.FUNCTIONS, EnumSet.of(Layer.LIBRARY, Layer.WORKFLOW),
            Layer.LOCAL, EnumSet.of(Layer.LIBRARY, Layer.WORKFLOW),
            // The CLI starts local mode; it reaches the handlers only through it.
            Layer.CLI, EnumSet.of(Layer.LIBRARY, Layer.WORKFLOW, Layer.LOCAL),
            Layer.BENCH, EnumSet.allOf(Layer.class));

    /** One class using another, as jdeps reports it (nested classes as {@code Outer$Inner}). */
    record ClassEdge(String from, String to) {
        String fromPackage() {
            return packageOf(from);
        }

        String toPackage() {
            return packageOf(to);
        }

        @Override
        public String toString() {
            return from + " -> " + to;
        }
    }

    private static List<ClassEdge> edges;

    @BeforeAll
    static void readTheCompiledClasses() {
        edges = jdeps(Path.of("target", "classes"));
    }

    @Test
    void jdepsSeesEveryLayerOfTheCompiledClasses() {
        Set<String> packages = new TreeSet<>();
        edges.forEach(e -> {
            packages.add(e.fromPackage());
            packages.add(e.toPackage());
        });
        assertThat(packages)
                .contains(
                        "io.trainplane.core",
                        "io.trainplane.workflow",
                        "io.trainplane.functions",
                        "io.trainplane.local",
                        "io.trainplane.cli",
                        "io.trainplane.aws.eks");
        assertThat(edges).anySatisfy(e -> {
            assertThat(e.fromPackage()).isEqualTo("io.trainplane.functions");
            assertThat(e.toPackage()).isEqualTo("io.trainplane.workflow");
        });
    }

    @Test
    void everyPackageBelongsToALayer() {
        SortedSet<String> unplaced = new TreeSet<>();
        for (ClassEdge e : edges) {
            for (String p : List.of(e.fromPackage(), e.toPackage())) {
                if (layer(p).isEmpty()) {
                    unplaced.add(p);
                }
            }
        }
        assertThat(unplaced)
                .as("packages in no layer (place them in ArchitectureTest.layer)")
                .isEmpty();
    }

    @Test
    void theLibraryUsesNothingAboveIt() {
        assertThat(violations(edges, Layer.LIBRARY))
                .as("library classes using workflow, functions, local, cli or bench")
                .isEmpty();
    }

    @Test
    void theWorkflowUsesOnlyTheLibrary() {
        assertThat(violations(edges, Layer.WORKFLOW))
                .as("workflow classes using functions, local, cli or bench")
                .isEmpty();
    }

    @Test
    void theFunctionsUseOnlyTheWorkflowAndTheLibrary() {
        assertThat(violations(edges, Layer.FUNCTIONS))
                .as("functions classes using local, cli or bench")
                .isEmpty();
    }

    @Test
    void localUsesOnlyTheWorkflowAndTheLibrary() {
        assertThat(violations(edges, Layer.LOCAL))
                .as("local classes using functions, cli or bench")
                .isEmpty();
    }

    @Test
    void theCliUsesLocalTheWorkflowAndTheLibrary() {
        assertThat(violations(edges, Layer.CLI))
                .as("cli classes using functions or bench")
                .isEmpty();
    }

    @Test
    void noPackagesDependOnEachOtherInACycle() {
        assertThat(cycles(edges))
                .as("package cycles, each with the class edges that close it")
                .isEmpty();
    }

    /**
     * The product's tables and rules of what AWS and Kubernetes do: the twin (local and local.sim) may
     * not judge the product with them, or a wrong figure there would pass every local run. It has
     * its own (its EC2 answers, the EKS AMI's kubelet, EKS's calendar and CIDR rules, the
     * operators' conditions, the node's root volume, the Price List's prices, EKS's log group
     * names, Pod Security Admission's labels).
     */
    static final Set<String> PRODUCT_FACTS = Set.of(
            "io.trainplane.spec.InstanceShapes",
            "io.trainplane.spec.NodeAllocatable",
            "io.trainplane.spec.NodeDaemon",
            "io.trainplane.spec.NodeDisk",
            "io.trainplane.spec.KubernetesVersions",
            "io.trainplane.aws.PublicAccessCidrs",
            "io.trainplane.aws.InstancePrices",
            "io.trainplane.aws.ec2.EfaInterfaces",
            "io.trainplane.aws.ec2.ControlPlaneLogGroup",
            "io.trainplane.kubernetes.PodSecurity",
            "io.trainplane.kubernetes.PyTorchJobState");
    /**
     * What the simulation must still speak: the record the product reads EC2's DescribeInstanceTypes
     * answers into (InstanceCatalog's). Naming it puts its outer class in the constant pool, so the
     * outer class is allowed only while the bytecode touches none of its methods or fields.
     */
    static final Set<String> SPOKEN = Set.of("io.trainplane.spec.InstanceShapes$Shape");

    /** The twin: local mode and its simulated AWS and Kubernetes. */
    private static final String SIMULATION = PROJECT + "local";

    @Test
    void theSimulationJudgesWithItsOwnFactsNotTheProducts() {
        assertThat(factUses(edges, ArchitectureTest::javap))
                .as("twin (local) classes using the product's fact tables and rules")
                .isEmpty();
    }

    @Test
    void theSimulationsSourcesNameNoneOfTheProductsFactClasses() throws java.io.IOException {
        // Constants are inlined by the compiler, out of the bytecode's sight: the sources say it.
        Pattern named = Pattern.compile("\\bio\\.trainplane\\.(?:spec|aws|aws\\.ec2|kubernetes)\\.(?:"
                + PRODUCT_FACTS.stream()
                        .map(c -> c.substring(c.lastIndexOf('.') + 1))
                        .collect(Collectors.joining("|"))
                + ")\\b(?!\\.Shape;)|import (?:static )?io\\.trainplane\\.(?:spec|aws|aws\\.ec2|kubernetes)\\.\\*;");
        List<String> found = new ArrayList<>();
        try (var files = java.nio.file.Files.walk(Path.of("src/main/java/io/trainplane/local"))) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                Matcher m = named.matcher(java.nio.file.Files.readString(file));
                while (m.find()) {
                    found.add(file.getFileName() + ": " + m.group());
                }
            }
        }
        assertThat(found).isEmpty();
    }

    // The checks on made-up edges: each rule fails when it should, naming what breaks it.

    @Test
    void anUpwardEdgeIsNamedByItsClasses() {
        List<ClassEdge> made = List.of(
                new ClassEdge("io.trainplane.workflow.Step", "io.trainplane.aws.Settings"),
                new ClassEdge("io.trainplane.aws.eks.EksClusters", "io.trainplane.workflow.Step$Context"),
                new ClassEdge("io.trainplane.local.LocalRun", "io.trainplane.functions.Functions"));
        assertThat(violations(made, Layer.WORKFLOW)).isEmpty();
        assertThat(violations(made, Layer.LIBRARY))
                .containsExactly(
                        "io.trainplane.aws.eks.EksClusters -> io.trainplane.workflow.Step$Context (library uses workflow)");
        assertThat(violations(made, Layer.LOCAL))
                .containsExactly(
                        "io.trainplane.local.LocalRun -> io.trainplane.functions.Functions (local uses functions)");
    }

    @Test
    void aCycleIsNamedWithTheClassEdgesThatCloseIt() {
        List<ClassEdge> made = List.of(
                new ClassEdge("io.trainplane.aws.eks.ControlPlaneLogGroup", "io.trainplane.aws.RunTags"),
                new ClassEdge("io.trainplane.aws.RunTags", "io.trainplane.aws.eks.Names"),
                new ClassEdge("io.trainplane.aws.ec2.Ec2Objects", "io.trainplane.aws.RunTags"),
                new ClassEdge("io.trainplane.spec.RunSpec", "io.trainplane.core.Json"));
        assertThat(cycles(made))
                .containsExactly("aws -> aws.eks -> aws"
                        + " [io.trainplane.aws.RunTags -> io.trainplane.aws.eks.Names;"
                        + " io.trainplane.aws.eks.ControlPlaneLogGroup -> io.trainplane.aws.RunTags]");
        assertThat(cycles(made.subList(1, 4))).isEmpty();
    }

    @Test
    void aProductFactUsedByTheSimulationIsNamedButTheShapeItSpeaksIsNot() {
        List<ClassEdge> made = List.of(
                new ClassEdge("io.trainplane.local.sim.ClusterNodes", "io.trainplane.spec.NodeAllocatable"),
                new ClassEdge("io.trainplane.local.sim.Catalog", "io.trainplane.spec.InstanceShapes"),
                new ClassEdge("io.trainplane.local.sim.Catalog", "io.trainplane.spec.InstanceShapes$Shape"),
                new ClassEdge("io.trainplane.local.sim.Nodes", "io.trainplane.spec.InstanceShapes"),
                new ClassEdge("io.trainplane.local.sim.Nodes", "io.trainplane.spec.InstanceShapes$Shape"),
                new ClassEdge("io.trainplane.local.sim.Jobs", "io.trainplane.kubernetes.PyTorchJobState$Failed"),
                new ClassEdge("io.trainplane.local.LocalCloud", "io.trainplane.spec.KubernetesVersions"),
                new ClassEdge("io.trainplane.spec.SpecRules", "io.trainplane.spec.NodeAllocatable"));
        Map<String, String> bytecode = Map.of(
                "io.trainplane.local.sim.Catalog",
                "invokespecial #7 // Method io/trainplane/spec/InstanceShapes$Shape.\"<init>\":(...)V",
                "io.trainplane.local.sim.Nodes",
                "invokestatic #9 // Method io/trainplane/spec/InstanceShapes.of:(Ljava/lang/String;)Ljava/util/Optional;");
        assertThat(factUses(made, c -> bytecode.getOrDefault(c, "")))
                .containsExactly(
                        "io.trainplane.local.LocalCloud -> io.trainplane.spec.KubernetesVersions",
                        "io.trainplane.local.sim.ClusterNodes -> io.trainplane.spec.NodeAllocatable",
                        "io.trainplane.local.sim.Jobs -> io.trainplane.kubernetes.PyTorchJobState$Failed",
                        "io.trainplane.local.sim.Nodes -> io.trainplane.spec.InstanceShapes");
    }

    /**
     * The edges from the simulation's classes to the product's fact classes (or their nested ones),
     * as "class -> class", sorted: a spoken type is allowed, and its outer class while
     * {@code bytecode} (javap -c of the using class) calls none of the outer class's methods nor
     * reads its fields.
     */
    static List<String> factUses(List<ClassEdge> edges, java.util.function.Function<String, String> bytecode) {
        List<String> found = new ArrayList<>();
        for (ClassEdge e : edges) {
            String outer = e.to().contains("$") ? e.to().substring(0, e.to().indexOf('$')) : e.to();
            if (!(e.fromPackage().equals(SIMULATION) || e.fromPackage().startsWith(SIMULATION + "."))
                    || !PRODUCT_FACTS.contains(outer)
                    || SPOKEN.contains(e.to())) {
                continue;
            }
            boolean onlyOuterOfSpoken = e.to().equals(outer)
                    && SPOKEN.stream().anyMatch(s -> s.startsWith(outer + "$"))
                    && !Pattern.compile("(?:Method|Field) " + Pattern.quote(outer.replace('.', '/')) + "\\.")
                            .matcher(bytecode.apply(e.from()))
                            .find();
            if (!onlyOuterOfSpoken) {
                found.add(e.toString());
            }
        }
        return found.stream().distinct().sorted().toList();
    }

    /** javap -c -p of a compiled class: its code, with each constant it uses named in a comment. */
    static String javap(String className) {
        ToolProvider javap =
                ToolProvider.findFirst("javap").orElseThrow(() -> new AssertionError("this JDK has no javap"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = javap.run(
                new PrintWriter(out),
                new PrintWriter(err),
                "-c",
                "-p",
                "-cp",
                Path.of("target", "classes").toString(),
                className);
        assertThat(exit).as("javap exit status; stderr: %s", err).isZero();
        return out.toString();
    }

    /** Runs jdeps on a folder of classes: every edge from one io.trainplane class to another. */
    static List<ClassEdge> jdeps(Path classes) {
        assertThat(classes).as("compiled classes (run after compile)").isDirectory();
        ToolProvider jdeps =
                ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("this JDK has no jdeps"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = jdeps.run(
                new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-filter:none", classes.toString());
        assertThat(exit).as("jdeps exit status; stderr: %s", err).isZero();
        // "   io.trainplane.a.X     -> io.trainplane.b.Y     classes"
        Pattern line = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s");
        List<ClassEdge> found = new ArrayList<>();
        for (String l : out.toString().split("\\R")) {
            Matcher m = line.matcher(l);
            if (m.find() && m.group(1).startsWith(PROJECT) && m.group(2).startsWith(PROJECT)) {
                found.add(new ClassEdge(m.group(1), m.group(2)));
            }
        }
        return found;
    }

    /** The layer of an io.trainplane package (sub-packages share their parent's), if it has one. */
    static Optional<Layer> layer(String packageName) {
        String top = relative(packageName).split("\\.")[0];
        return Optional.ofNullable(
                switch (top) {
                    case "core", "spec", "runs", "aws", "kubernetes", "clients" -> Layer.LIBRARY;
                    case "workflow" -> Layer.WORKFLOW;
                    case "functions" -> Layer.FUNCTIONS;
                    case "local" -> Layer.LOCAL;
                    case "cli" -> Layer.CLI;
                    case "bench" -> Layer.BENCH;
                    default -> null;
                });
    }

    /** The edges from a layer's classes into a layer it may not use, as "class -> class (a uses b)". */
    static List<String> violations(List<ClassEdge> edges, Layer from) {
        List<String> found = new ArrayList<>();
        for (ClassEdge e : edges) {
            Optional<Layer> source = layer(e.fromPackage());
            Optional<Layer> target = layer(e.toPackage());
            if (source.equals(Optional.of(from))
                    && target.isPresent()
                    && target.get() != from
                    && !MAY_USE.get(from).contains(target.get())) {
                found.add(e + " (" + name(from) + " uses " + name(target.get()) + ")");
            }
        }
        return found.stream().distinct().sorted().toList();
    }

    /**
     * Every set of packages that use each other in a circle (a strongly connected component of the
     * package graph), each named by its shortest cycle through its first package and, in brackets,
     * one class edge per step of it: "aws.ec2 -> aws.eks -> aws.ec2 [X -> Y; Y -> Z]".
     */
    static List<String> cycles(List<ClassEdge> edges) {
        Map<String, Map<String, List<ClassEdge>>> graph = new TreeMap<>();
        for (ClassEdge e : edges) {
            graph.computeIfAbsent(e.toPackage(), p -> new TreeMap<>());
            if (!e.fromPackage().equals(e.toPackage())) {
                graph.computeIfAbsent(e.fromPackage(), p -> new TreeMap<>())
                        .computeIfAbsent(e.toPackage(), p -> new ArrayList<>())
                        .add(e);
            }
        }
        List<String> found = new ArrayList<>();
        for (SortedSet<String> component : stronglyConnected(graph)) {
            if (component.size() < 2) {
                continue;
            }
            List<String> cycle = shortestCycle(graph, component, component.first());
            List<String> classEdges = new ArrayList<>();
            for (int i = 0; i + 1 < cycle.size(); i++) {
                classEdges.add(
                        graph.get(cycle.get(i)).get(cycle.get(i + 1)).getFirst().toString());
            }
            found.add(cycle.stream().map(ArchitectureTest::relative).collect(Collectors.joining(" -> ")) + " ["
                    + String.join("; ", classEdges) + "]");
        }
        return found;
    }

    /** Tarjan's algorithm, iteratively: the graph's strongly connected components. */
    private static List<SortedSet<String>> stronglyConnected(Map<String, Map<String, List<ClassEdge>>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<SortedSet<String>> components = new ArrayList<>();
        for (String root : graph.keySet()) {
            if (index.containsKey(root)) {
                continue;
            }
            // Each frame: a node and the successors it has still to visit.
            Deque<Map.Entry<String, ArrayDeque<String>>> frames = new ArrayDeque<>();
            visit(root, index, low, stack, onStack, frames, graph);
            while (!frames.isEmpty()) {
                Map.Entry<String, ArrayDeque<String>> frame = frames.peek();
                String node = frame.getKey();
                String next = frame.getValue().poll();
                if (next != null) {
                    if (!index.containsKey(next)) {
                        visit(next, index, low, stack, onStack, frames, graph);
                    } else if (onStack.contains(next)) {
                        low.put(node, Math.min(low.get(node), index.get(next)));
                    }
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    String parent = frames.peek().getKey();
                    low.put(parent, Math.min(low.get(parent), low.get(node)));
                }
                if (low.get(node).equals(index.get(node))) {
                    SortedSet<String> component = new TreeSet<>();
                    String member;
                    do {
                        member = stack.pop();
                        onStack.remove(member);
                        component.add(member);
                    } while (!member.equals(node));
                    components.add(component);
                }
            }
        }
        return components;
    }

    private static void visit(
            String node,
            Map<String, Integer> index,
            Map<String, Integer> low,
            Deque<String> stack,
            Set<String> onStack,
            Deque<Map.Entry<String, ArrayDeque<String>>> frames,
            Map<String, Map<String, List<ClassEdge>>> graph) {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        onStack.add(node);
        frames.push(Map.entry(node, new ArrayDeque<>(graph.get(node).keySet())));
    }

    /** The shortest path from {@code start} back to itself inside a component (breadth first). */
    private static List<String> shortestCycle(
            Map<String, Map<String, List<ClassEdge>>> graph, Set<String> component, String start) {
        Map<String, String> cameFrom = new LinkedHashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            String node = queue.poll();
            for (String next : graph.get(node).keySet()) {
                if (!component.contains(next) || cameFrom.containsKey(next)) {
                    continue;
                }
                cameFrom.put(next, node);
                if (next.equals(start)) {
                    List<String> path = new ArrayList<>(List.of(start));
                    for (String at = node; !at.equals(start); at = cameFrom.get(at)) {
                        path.addFirst(at);
                    }
                    path.addFirst(start);
                    return path;
                }
                queue.add(next);
            }
        }
        throw new IllegalStateException(start + " is on no cycle of " + component);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    private static String relative(String packageName) {
        return packageName.startsWith(PROJECT) ? packageName.substring(PROJECT.length()) : packageName;
    }

    private static String name(Layer layer) {
        return layer.name().toLowerCase(Locale.ROOT);
    }
}
