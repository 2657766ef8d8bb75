package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ClusterRoles;
import io.trainplane.aws.OfflineHttpClient;
import io.trainplane.aws.Settings;
import io.trainplane.clients.AwsClients;
import io.trainplane.runs.CostEstimate;
import io.trainplane.workflow.StateMachineDefinition.Task;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What is still written by hand agrees with {@link Pipeline}: template.yaml (no function beside the
 * declared ones, the roles and conditions they name, the state machines' definitions and
 * substitutions), the entry points in functions/, the Makefile's rules, and the steps' own code on
 * which jar they need. (The state machines, functions.mk and template.yaml's function and log group
 * resources are made from Pipeline: StateMachinesTest.)
 */
class StackConsistencyTest {
    final JsonNode template = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(Path.of("template.yaml")));

    StackConsistencyTest() throws IOException {}

    Map<String, JsonNode> resources(String type) {
        Map<String, JsonNode> found = new TreeMap<>();
        template.path("Resources").properties().forEach(r -> {
            if (r.getValue().path("Type").asText().equals(type)) {
                found.put(r.getKey(), r.getValue().path("Properties"));
            }
        });
        return found;
    }

    /**
     * The functions' resources are written from the declaration (StateMachinesTest holds them to it):
     * none is written by hand beside them, and the roles and conditions they name are the template's.
     */
    @Test
    void everyFunctionOfTheTemplateIsADeclaredOneUnderItsRoleAndCondition() {
        assertThat(resources("AWS::Serverless::Function").keySet())
                .isEqualTo(Pipeline.FUNCTIONS.stream()
                        .map(LambdaFunction::logicalId)
                        .collect(Collectors.toCollection(TreeSet::new)));
        Set<String> lambdaLogs = new TreeSet<>();
        resources("AWS::Logs::LogGroup").forEach((name, properties) -> {
            if (properties.path("LogGroupName").asText().startsWith("/aws/lambda/")) {
                lambdaLogs.add(name);
            }
        });
        assertThat(lambdaLogs)
                .isEqualTo(Pipeline.FUNCTIONS.stream()
                        .map(f -> f.name() + "Logs")
                        .collect(Collectors.toCollection(TreeSet::new)));
        for (LambdaFunction.Role role : LambdaFunction.Role.values()) {
            assertThat(template.at("/Resources/" + role.logicalId() + "/Type").asText())
                    .as(role.logicalId())
                    .isEqualTo("AWS::IAM::Role");
        }
        for (LambdaFunction function : Pipeline.FUNCTIONS) {
            String condition = function.deployment().condition();
            if (condition != null) {
                assertThat(template.at("/Conditions/" + condition).isMissingNode())
                        .as(function.name() + " Condition " + condition)
                        .isFalse();
            }
            // A role made under a condition its function is not would be missing for the function.
            String roleCondition = template.at("/Resources/" + function.role().logicalId() + "/Condition")
                    .asText();
            assertThat(roleCondition)
                    .as(function.role().logicalId() + " Condition, for " + function.name())
                    .isIn("", condition);
        }
    }

    /** The actual cost prices Lambda at one memory size for every function: the Globals' (no declaration sets its own). */
    @Test
    void everyFunctionHasTheMemoryTheActualCostPrices() {
        assertThat(template.at("/Globals/Function/MemorySize").asDouble()).isEqualTo(CostEstimate.LAMBDA_GB * 1024);
    }

    /** The dashboard's body is JSON once CloudFormation substitutes it, and its cost widget graphs what FinishRun emits. */
    @Test
    void theDashboardParsesAndGraphsTheRunsCost() {
        JsonNode body = io.trainplane.core.Json.read(template.at("/Resources/Dashboard/Properties/DashboardBody")
                .asText()
                .replaceAll("\\$\\{[^}]+}", "x"));
        List<String> graphed = new java.util.ArrayList<>();
        body.path("widgets").forEach(w -> w.path("properties")
                .path("metrics")
                .forEach(m -> graphed.add(m.path(1).asText())));
        assertThat(graphed).contains("RunCost", "RunDurationSeconds", "RunsSucceeded");
    }

    /** SnapStart runs published versions only: the state machines must call the alias, not $LATEST. */
    @Test
    void theTemplateGivesEachStateMachineItsFileAndTheAliasesOfItsFunctions() {
        Map<String, JsonNode> machines = resources("AWS::Serverless::StateMachine");
        assertThat(machines.keySet())
                .containsExactlyInAnyOrderElementsOf(Pipeline.stateMachines().stream()
                        .map(StateMachineDefinition::name)
                        .toList());
        for (StateMachineDefinition machine : Pipeline.stateMachines()) {
            JsonNode properties = machines.get(machine.name());
            assertThat(properties.path("DefinitionUri").asText()).isEqualTo("statemachines/" + machine.file());
            Map<String, String> substitutions = new TreeMap<>();
            properties
                    .path("DefinitionSubstitutions")
                    .properties()
                    .forEach(e -> substitutions.put(e.getKey(), e.getValue().asText()));
            Map<String, String> functions = machine.functions().stream()
                    .collect(Collectors.toMap(f -> f.name() + "FunctionArn", f -> f.logicalId() + ".Alias"));
            assertThat(substitutions)
                    .as(machine.name() + " DefinitionSubstitutions")
                    .containsAllEntriesOf(functions);
            // Every placeholder the definition holds has its substitution, and there is no other.
            assertThat(substitutions.keySet())
                    .as(machine.name() + " DefinitionSubstitutions")
                    .containsExactlyInAnyOrderElementsOf(java.util.regex.Pattern.compile("\\$\\{(\\w+)}")
                            .matcher(machine.asl())
                            .results()
                            .map(m -> m.group(1))
                            .collect(Collectors.toSet()));
            // ... and the state machine's role may invoke exactly its functions (!Ref <Name>Function).
            List<String> invoked = new java.util.ArrayList<>();
            properties.path("Policies").forEach(policy -> {
                JsonNode name = policy.path("LambdaInvokePolicy").path("FunctionName");
                if (name.isTextual()) {
                    invoked.add(name.asText());
                }
            });
            assertThat(invoked)
                    .as(machine.name() + " LambdaInvokePolicy")
                    .containsExactlyInAnyOrderElementsOf(machine.functions().stream()
                            .map(LambdaFunction::logicalId)
                            .toList());
            if (substitutions.containsKey(Pipeline.PIPELINE_EXECUTION_ARN_PREFIX)) {
                assertThat(substitutions.get(Pipeline.PIPELINE_EXECUTION_ARN_PREFIX))
                        .endsWith(":execution:${TrainingPipeline.Name}:");
            }
        }
        assertThat(template.at("/Globals/Function/AutoPublishAlias").asText()).isEqualTo("live");
        assertThat(template.at("/Globals/Function/SnapStart/ApplyOn").asText()).isEqualTo("PublishedVersions");
    }

    /**
     * A Task that timed out would leave its function running: the function's own Timeout (its
     * declaration's, or the Globals') must come first.
     */
    @Test
    void everyTaskOutlivesItsFunction() {
        int globalTimeout = template.at("/Globals/Function/Timeout").asInt();
        assertThat(globalTimeout).isPositive();
        for (StateMachineDefinition machine : Pipeline.stateMachines()) {
            for (LambdaFunction function : machine.functions()) {
                Duration own = function.deployment().timeout();
                long functionTimeout = own == null ? globalTimeout : own.toSeconds();
                machine.states().stream()
                        .flatMap(s -> s instanceof Task task ? Stream.of(task) : Stream.empty())
                        .filter(task -> task.function() == function)
                        .forEach(task -> assertThat(task.timeout().toSeconds())
                                .as(task.name())
                                .isGreaterThan(functionTimeout));
            }
        }
    }

    /** Each entry point is one line: its declared function, built from the environment. */
    @Test
    void everyFunctionHasItsEntryPointAndEveryEntryPointAFunction() throws Exception {
        Path entryPoints = Path.of("functions/io/trainplane/functions");
        try (Stream<Path> files = Files.list(entryPoints)) {
            assertThat(files.map(p -> p.getFileName().toString().replaceAll("\\.java$", "")))
                    .containsExactlyInAnyOrderElementsOf(Pipeline.FUNCTIONS.stream()
                            .map(LambdaFunction::name)
                            .toList());
        }
        Pattern declared = Pattern.compile("super\\(Pipeline\\.(\\w+), AwsClients\\.fromEnvironment\\(\\)\\);");
        for (LambdaFunction function : Pipeline.FUNCTIONS) {
            String source = Files.readString(entryPoints.resolve(function.name() + ".java"));
            assertThat(source)
                    .as(function.name())
                    .contains("public final class " + function.name() + " extends StepHandler");
            Matcher m = declared.matcher(source);
            assertThat(m.find())
                    .as(function.name() + " builds a declared function")
                    .isTrue();
            assertThat(Pipeline.class.getField(m.group(1)).get(null))
                    .as(function.name())
                    .isSameAs(function);
        }
    }

    @Test
    void theMakefileIncludesTheDeclaredListsAndBuildsEachArtifactsFunctionsFromItsJar() throws IOException {
        String makefile = Files.readString(Path.of("Makefile"));
        assertThat(makefile).contains("include $(SOURCE)/functions.mk");
        for (LambdaArtifact artifact : LambdaArtifact.values()) {
            assertThat(makefile)
                    .contains("$(addprefix build-,$(addsuffix Function,$(" + artifact.name() + "_FUNCTIONS))):\n"
                            + "\t$(JARS)\n"
                            + "\tcd \"$(ARTIFACTS_DIR)\" && unzip -q -o \"$(SOURCE)/$(" + artifact.name() + "_JAR)\"");
        }
    }

    /**
     * The artifact matches the code: a function ships the Kubernetes jar exactly when its step is
     * a {@link KubernetesStep} and when the step, or a workflow class it names, connects to a
     * cluster or names a fabric8 or kubernetes type.
     */
    @Test
    void theKubernetesFunctionsAreThoseWhoseStepsUseKubernetes() throws IOException {
        AwsClients clients = AwsClients.offline(settings(), new OfflineHttpClient());
        Path workflow = Path.of("src/main/java/io/trainplane/workflow");
        Pattern kubernetes = Pattern.compile(
                "clusters\\(\\)\\.connect|import io\\.fabric8\\.|import io\\.trainplane\\.kubernetes\\.");
        for (LambdaFunction function : Pipeline.FUNCTIONS) {
            Step step = function.step().apply(clients);
            boolean declared = function.artifact() == LambdaArtifact.KUBERNETES;
            assertThat(step instanceof KubernetesStep)
                    .as(function.name() + " is a KubernetesStep")
                    .isEqualTo(declared);
            String stepClass = step.getClass().getSimpleName();
            String source = Files.readString(workflow.resolve(stepClass + ".java"));
            StringBuilder reached = new StringBuilder(source);
            Matcher named = Pattern.compile("\\b([A-Z]\\w+)\\b").matcher(source);
            Set<String> seen = new TreeSet<>();
            while (named.find()) {
                Path helper = workflow.resolve(named.group(1) + ".java");
                if (seen.add(named.group(1))
                        && !named.group(1).equals(stepClass)
                        && Files.exists(helper)
                        && !Set.of("Services", "Failures", "StepWiring").contains(named.group(1))) {
                    reached.append(Files.readString(helper));
                }
            }
            assertThat(kubernetes.matcher(reached).find())
                    .as(function.name() + " uses Kubernetes")
                    .isEqualTo(declared);
        }
    }

    /**
     * An AWS-only function loads the declaration with every other function in it, from the jar
     * without the Kubernetes client: declaring the functions must load no step (a constructor
     * reference would: it is linked with the class), and building an AWS function's handler must
     * reach neither fabric8 nor the project's kubernetes package. (LambdaArtifactsTest proves it on
     * the real jar after packaging; this says so at unit-test time.)
     */
    @Test
    void theDeclarationAndAnAwsFunctionLoadWithoutTheKubernetesClient() throws Exception {
        ClassLoader withoutKubernetes = new ClassLoader(StackConsistencyTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.startsWith("io.fabric8.") || name.startsWith("io.trainplane.kubernetes.")) {
                    throw new ClassNotFoundException(name + " is not in the AWS artifact");
                }
                if (!name.startsWith("io.trainplane.")) {
                    return super.loadClass(name, resolve);
                }
                synchronized (getClassLoadingLock(name)) {
                    Class<?> loaded = findLoadedClass(name);
                    if (loaded == null) {
                        try (var in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                            if (in == null) {
                                throw new ClassNotFoundException(name);
                            }
                            byte[] bytes = in.readAllBytes();
                            loaded = defineClass(name, bytes, 0, bytes.length);
                        } catch (IOException e) {
                            throw new ClassNotFoundException(name, e);
                        }
                    }
                    return loaded;
                }
            }
        };
        var construct = Class.forName(AwsFunctionProbe.class.getName(), true, withoutKubernetes)
                .getDeclaredConstructor();
        construct.setAccessible(true);
        @SuppressWarnings("unchecked")
        Supplier<Object> probe = (Supplier<Object>) construct.newInstance();
        Object handler = probe.get();
        assertThat(handler.getClass().getName()).isEqualTo(StepHandler.class.getName());
        assertThat(handler.getClass().getClassLoader()).isSameAs(withoutKubernetes);
    }

    /** Run in the loader without Kubernetes: the declaration, and an AWS function's handler built from it. */
    static final class AwsFunctionProbe implements Supplier<Object> {
        @Override
        public Object get() {
            // Every function of the declaration is built in this loader, none needing the Kubernetes client.
            assertThat(Pipeline.FUNCTIONS).isNotEmpty().doesNotContainNull();
            return Pipeline.CHECK_CLUSTER.handler(AwsClients.offline(settings(), new OfflineHttpClient()));
        }
    }

    static Settings settings() {
        return new Settings(
                "trainplane",
                "trainplane-runs",
                "trainplane",
                "us-east-1",
                new ClusterNetwork(List.of("subnet-0a"), List.of()),
                new ClusterRoles("", "", ""),
                30);
    }

    /**
     * What Settings reads, template.yaml's Globals set: the stack's name (every resource a run
     * creates is tagged with it), the public endpoint's CIDRs and the control-plane logs' retention.
     */
    /** RunSecretsPrefix reaches the functions, and Settings' fallback is the parameter's default. */
    @Test
    void theGlobalsGiveEveryFunctionRunSecretsPrefixWhoseDefaultSettingsKnows() {
        assertThat(template.at("/Globals/Function/Environment/Variables/RUN_SECRETS_PREFIX")
                        .asText())
                .isEqualTo("RunSecretsPrefix");
        assertThat(template.at("/Parameters/RunSecretsPrefix/Default").asText())
                .isEqualTo(Settings.DEFAULT_RUN_SECRETS_PREFIX);
    }

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
        template.at("/Parameters/LogRetentionDays/AllowedValues").forEach(days -> assertThat(Settings.RETENTION_DAYS)
                .as("LogRetentionDays " + days)
                .contains(days.asInt()));
    }
}
