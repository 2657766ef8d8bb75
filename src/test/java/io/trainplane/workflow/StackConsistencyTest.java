package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainplane.functions.Functions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The four places that name the functions agree: the state machines' placeholders, template.yaml
 * (functions, handlers, DefinitionSubstitutions), the Makefile's SAM build targets, and the
 * in-process registry local mode uses.
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
}
