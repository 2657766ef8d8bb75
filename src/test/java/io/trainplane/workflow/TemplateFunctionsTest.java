package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainplane.workflow.LambdaFunction.Role;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The declared functions written into a template between its markers; what is outside them stays. */
class TemplateFunctionsTest {
    static final String HAND_WRITTEN = "  RunsTable:\n    Type: AWS::DynamoDB::Table\n\n";

    @Test
    void theFunctionsGoBetweenTheMarkersAndTheRestStays() throws Exception {
        String template = "Resources:\n" + HAND_WRITTEN + TemplateFunctions.BEGIN + "\n  Stale: x\n"
                + TemplateFunctions.END + "\n" + HAND_WRITTEN.replace("Runs", "Other");
        String made = TemplateFunctions.splice(template);
        assertThat(made)
                .startsWith("Resources:\n" + HAND_WRITTEN + TemplateFunctions.BEGIN + "\n  StartRunFunction:\n")
                .endsWith(TemplateFunctions.END + "\n" + HAND_WRITTEN.replace("Runs", "Other"))
                .doesNotContain("Stale");
        assertThat(TemplateFunctions.splice(made)).isEqualTo(made);
        JsonNode janitor = new ObjectMapper(new YAMLFactory()).readTree(made).at("/Resources/JanitorFunction");
        assertThat(janitor.at("/Properties/Timeout").asInt()).isEqualTo(300);
        assertThat(janitor.at("/Properties/Events/Sweep/Type").asText()).isEqualTo("Schedule");
        assertThat(janitor.at("/Properties/Environment/Variables/TRAINING_PIPELINE_ARN")
                        .asText())
                .isEqualTo("TrainingPipeline");
    }

    @Test
    void aTemplateWithoutItsMarkersOnceEachIsRefused() {
        assertThatThrownBy(() -> TemplateFunctions.splice("Resources:\n" + HAND_WRITTEN))
                .hasMessageContaining(TemplateFunctions.BEGIN);
        assertThatThrownBy(() -> TemplateFunctions.splice(
                        TemplateFunctions.END + "\n" + TemplateFunctions.BEGIN + "\n" + TemplateFunctions.END + "\n"))
                .hasMessageContaining("once each, in this order");
    }

    @Test
    void aDescriptionYamlWouldReadOtherwiseIsQuoted() {
        assertThat(TemplateFunctions.scalar("Creates the run's EKS cluster (and more), once"))
                .isEqualTo("Creates the run's EKS cluster (and more), once");
        assertThat(TemplateFunctions.scalar("Reads: the record")).isEqualTo("'Reads: the record'");
        assertThat(TemplateFunctions.scalar("[a] list")).isEqualTo("'[a] list'");
        assertThat(TemplateFunctions.scalar("it's #1")).isEqualTo("'it''s #1'");
        assertThat(TemplateFunctions.scalar("trailing ")).isEqualTo("'trailing '");
    }

    @Test
    void whatLambdaWouldRefuseIsRefusedInTheDeclaration() {
        assertThatThrownBy(() -> FunctionDeployment.of("x".repeat(257), Role.RUN_RECORD))
                .hasMessageContaining("1 to 256 characters");
        var deployment = FunctionDeployment.of("Does one thing", Role.RUN_RECORD);
        assertThatThrownBy(() -> deployment.withTimeout(Duration.ofMinutes(16))).hasMessageContaining("1 to 900");
        assertThatThrownBy(() -> deployment.withTimeout(Duration.ofMillis(1500)))
                .hasMessageContaining("whole seconds");
        assertThatThrownBy(() -> deployment.withVariable("NOT-A-NAME", "x")).hasMessageContaining("NOT-A-NAME");
    }
}
