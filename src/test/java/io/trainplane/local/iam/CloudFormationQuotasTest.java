package io.trainplane.local.iam;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The local account refuses a template over CloudFormation's quotas, as a deploy would. */
class CloudFormationQuotasTest {
    static StackTemplate parse(String text) {
        return StackTemplate.parse(text, "test.yaml", LocalAccount.LOCAL, Map.of());
    }

    static String topics(int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> "  T" + i + ": {Type: AWS::SNS::Topic}\n")
                .collect(Collectors.joining());
    }

    @Test
    void moreThanFiveHundredResourcesAreRefused() {
        parse("Resources:\n" + topics(CloudFormationQuotas.RESOURCES));

        assertThatThrownBy(() -> parse("Resources:\n" + topics(CloudFormationQuotas.RESOURCES + 1)))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("Resources has 501 resources, over CloudFormation's 500")
                .hasMessageContaining("ValidationError");
    }

    @Test
    void moreThanTwoHundredParametersAreRefused() {
        String parameters = IntStream.range(0, CloudFormationQuotas.PARAMETERS + 1)
                .mapToObj(i -> "  P" + i + ": {Type: String, Default: x}\n")
                .collect(Collectors.joining());

        assertThatThrownBy(() -> parse("Parameters:\n" + parameters + "Resources:\n" + topics(1)))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("Parameters has 201 parameters, over CloudFormation's 200");
    }
}
