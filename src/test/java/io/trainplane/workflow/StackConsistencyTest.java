package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainplane.aws.Settings;
import io.trainplane.functions.Functions;
import io.trainplane.functions.LambdaArtifact;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The four places that name the functions agree: the state machines' placeholders, template.yaml
 * (functions, handlers, DefinitionSubstitutions), the Makefile's SAM build targets, and the
 * in-process registry local mode uses; so do the Makefile and the registry on the artifact each
 * function ships.
 */
class StackConsistencyTest {
    static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(\\w+)FunctionArn}");

    final JsonNode template = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(Path.of("template.yaml")));

    StackConsistencyTest() throws IOException {
    }

    Set<String> placeholders(String machine) throws IOException {
        Set<String> names = new TreeSet<>();
        Matcher m = PLACEHOLDER.matcher(Files.readString(Path.of("statemachines", machine)));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    Set<String> substitutions(String stateMachine) {
        Set<String> names = new TreeSet<>();
        template.at("/Resources/" + stateMachine + "/Properties/DefinitionSubstitutions").fieldNames()
                .forEachRemaining(key -> names.add(key.replaceAll("FunctionArn$", "")));
        return names;
    }

    @Test
    void everyPlaceholderOfTheStateMachinesIsSubstitutedByTheTemplate() throws IOException {
        assertThat(substitutions("TrainingPipeline")).isEqualTo(placeholders("training-pipeline.asl.json"));
        assertThat(substitutions("Cleanup")).isEqualTo(placeholders("cleanup.asl.json"));
    }

    /** SnapStart runs published versions only: the state machines must call the alias, not $LATEST. */
    @Test
    void theStateMachinesInvokeTheFunctionsAliases() {
        for (String stateMachine : List.of("TrainingPipeline", "Cleanup")) {
            template.at("/Resources/" + stateMachine + "/Properties/DefinitionSubstitutions").fields()
                    .forEachRemaining(e -> assertThat(e.getValue().asText()).as(stateMachine + " " + e.getKey())
                            .isEqualTo(e.getKey().replaceAll("Arn$", "") + ".Alias"));
        }
        assertThat(template.at("/Globals/Function/AutoPublishAlias").asText()).isEqualTo("live");
        assertThat(template.at("/Globals/Function/SnapStart/ApplyOn").asText()).isEqualTo("PublishedVersions");
    }

    @Test
    void everyFunctionOfTheTemplateHasItsHandlerItsBuildTargetAndALocalEntry() throws IOException {
        String makefile = Files.readString(Path.of("Makefile"));
        Set<String> functions = new TreeSet<>();
        template.path("Resources").fields().forEachRemaining(resource -> {
            if (resource.getValue().path("Type").asText().equals("AWS::Serverless::Function")) {
                String name = resource.getKey().replaceAll("Function$", "");
                functions.add(name);
                assertThat(resource.getValue().at("/Properties/Handler").asText())
                        .isEqualTo("io.trainplane.functions." + name + "::handleRequest");
                assertThat(makefile).as("Makefile FUNCTIONS").containsPattern("\\b" + name + "\\b");
            }
        });
        assertThat(functions).isEqualTo(new TreeSet<>(Functions.all().keySet()));
    }

    /**
     * What Settings reads, template.yaml's Globals set: the stack's name (every resource a run
     * creates is tagged with it), the public endpoint's CIDRs and the control-plane logs' retention.
     */
    @Test
    void theGlobalsGiveEveryFunctionTheStacksNameAndItsClusterSettings() {
        JsonNode env = template.at("/Globals/Function/Environment/Variables");
        assertThat(env.path("STACK_NAME").asText()).isEqualTo("AWS::StackName");
        assertThat(env.path("CONTROL_PLANE_LOG_RETENTION_DAYS").asText()).isEqualTo("LogRetentionDays");
        assertThat(env.path("CLUSTER_ENDPOINT_PUBLIC_CIDRS").toString()).contains("ClusterEndpointPublicCidrs");
        JsonNode cidrs = template.at("/Parameters/ClusterEndpointPublicCidrs");
        assertThat(cidrs.path("Type").asText()).isEqualTo("CommaDelimitedList");
        assertThat(cidrs.path("Default").asText()).isEmpty();
        Pattern allowed = Pattern.compile(cidrs.path("AllowedPattern").asText());
        assertThat(allowed.matcher("").matches()).isTrue();
        assertThat(allowed.matcher(" 203.0.113.0/24").matches()).isTrue();
        assertThat(allowed.matcher("my-office").matches()).isFalse();
        template.at("/Parameters/LogRetentionDays/AllowedValues").forEach(days ->
                assertThat(Settings.RETENTION_DAYS).as("LogRetentionDays " + days).contains(days.asInt()));
    }

    /** A Makefile variable's words, with its continuation lines. */
    static List<String> makeVariable(String makefile, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + " := ((?:.*\\\\\n)*.*)$").matcher(makefile);
        assertThat(m.find()).as("Makefile variable " + name).isTrue();
        return Arrays.stream(m.group(1).replace("\\", " ").split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    @Test
    void theMakefileBuildsEveryFunctionFromTheArtifactTheRegistryGivesIt() throws IOException {
        String makefile = Files.readString(Path.of("Makefile"));
        assertThat(makeVariable(makefile, "AWS_FUNCTIONS")).containsExactlyInAnyOrderElementsOf(
                Functions.shipping(LambdaArtifact.AWS));
        assertThat(makeVariable(makefile, "KUBERNETES_FUNCTIONS")).containsExactlyInAnyOrderElementsOf(
                Functions.shipping(LambdaArtifact.KUBERNETES));
        assertThat(makeVariable(makefile, "AWS_JAR")).containsExactly("target/" + LambdaArtifact.AWS.jarName());
        assertThat(makeVariable(makefile, "KUBERNETES_JAR")).containsExactly("target/" + LambdaArtifact.KUBERNETES.jarName());
        assertThat(makefile).contains("$(addprefix build-,$(addsuffix Function,$(AWS_FUNCTIONS))): $(AWS_JAR)")
                .contains("$(addprefix build-,$(addsuffix Function,$(KUBERNETES_FUNCTIONS))): $(KUBERNETES_JAR)");
    }

    @Test
    void everyFunctionShipsExactlyOneArtifact() {
        assertThat(Functions.AWS).doesNotContainAnyElementsOf(Functions.KUBERNETES);
        Set<String> both = new TreeSet<>(Functions.AWS);
        both.addAll(Functions.KUBERNETES);
        assertThat(both).isEqualTo(new TreeSet<>(Functions.all().keySet()));
    }

    /**
     * The Kubernetes list matches the code: a function is a Kubernetes one exactly when its step,
     * or a workflow class the step names, connects to a cluster or names a fabric8 or kubernetes type.
     */
    @Test
    void theKubernetesFunctionsAreThoseWhoseStepsUseKubernetes() throws IOException {
        Path workflow = Path.of("src/main/java/io/trainplane/workflow");
        Pattern kubernetes = Pattern.compile("clusters\\(\\)\\.connect|import io\\.fabric8\\.|import io\\.trainplane\\.kubernetes\\.");
        for (String function : Functions.all().keySet()) {
            String handler = Files.readString(Path.of("functions/io/trainplane/functions", function + ".java"));
            // The step's constructor, or a factory that calls it (CleanupWiring::teardown).
            Matcher reference = Pattern.compile("(\\w+)::(\\w+)").matcher(handler);
            assertThat(reference.find()).as(function + " names its step").isTrue();
            Matcher step = Pattern.compile("(\\w+Step)").matcher(reference.group(2).equals("new") ? reference.group(1)
                    : factory(Files.readString(workflow.resolve(reference.group(1) + ".java")), reference.group(2)));
            assertThat(step.find()).as(function + " builds a step").isTrue();
            String source = Files.readString(workflow.resolve(step.group(1) + ".java"));
            StringBuilder reached = new StringBuilder(source);
            Matcher named = Pattern.compile("\\b([A-Z]\\w+)\\b").matcher(source);
            while (named.find()) {
                Path helper = workflow.resolve(named.group(1) + ".java");
                if (!named.group(1).equals(step.group(1)) && Files.exists(helper)
                        && !Set.of("Services", "Failures").contains(named.group(1))) {
                    reached.append(Files.readString(helper));
                }
            }
            assertThat(kubernetes.matcher(reached).find()).as(function + " uses Kubernetes")
                    .isEqualTo(Functions.KUBERNETES.contains(function));
        }
    }

    /** The body of the static factory {@code name} in {@code source}, up to the next method. */
    private static String factory(String source, String name) {
        int start = source.indexOf("static Step " + name + "(");
        assertThat(start).as("factory " + name).isNotNegative();
        int end = source.indexOf("public static", start + 1);
        return source.substring(start, end < 0 ? source.length() : end).replaceAll("\\bStep\\b", "");
    }
}
