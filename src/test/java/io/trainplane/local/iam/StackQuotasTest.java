package io.trainplane.local.iam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The stack as AWS's SAM translator makes it (SamTranslatorPeerTest's output), deployed under a long
 * stack name with six subnets and every list parameter set, keeps at least 10 % headroom under every
 * quota a deploy meets: IAM's per role and per managed policy ({@link IamQuotas}), and
 * CloudFormation's per template
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html).
 */
class StackQuotasTest {
    static final double HEADROOM = 0.10;

    /** Six subnets, three linked buckets and three adoptable file systems, the retraining schedule on. */
    static Map<String, String> largeParameters() {
        Map<String, String> values = new LinkedHashMap<>(StackTemplate.LOCAL_PARAMETERS);
        values.put(
                "SubnetIds",
                IntStream.range(0, 6)
                        .mapToObj(i -> "subnet-0a1b2c3d4e5f6000" + i)
                        .collect(Collectors.joining(",")));
        values.put("ClusterSecurityGroupIds", "sg-0a1b2c3d4e5f60001,sg-0a1b2c3d4e5f60002");
        values.put("LustreDataBuckets", "team-training-data-eu-west-1,team-model-zoo-eu-west-1,shared-datasets-2026");
        values.put("AdoptableFileSystemIds", "fs-0a1b2c3d4e5f60001,fs-0a1b2c3d4e5f60002,fs-0a1b2c3d4e5f60003");
        values.put("ExistingClusterNamePrefix", "ml-platform-shared-");
        values.put("RetrainingSchedule", "rate(7 days)");
        values.put("NotificationEmail", "ml-platform-team@example.com");
        return values;
    }

    static StackTemplate deployed(String stackName) throws Exception {
        return StackTemplate.parse(
                SamTranslatorPeerTest.translated(),
                "aws-sam-translator output",
                new LocalAccount("123456789012", "eu-west-1", "aws", stackName),
                largeParameters());
    }

    @Test
    void everyRoleKeepsTenPercentOfEveryIamQuotaUnderAFortyCharacterStackName() throws Exception {
        String stackName = "ml-platform-training-eu-west-1-prod-0001";
        assertThat(stackName).hasSize(40);
        StackTemplate stack = deployed(stackName);

        assertThat(stack.roles()).containsKeys("ClusterWorkRole", "StartScheduledRunRole");
        for (String role : stack.roles().keySet()) {
            for (IamQuotas.Usage usage : stack.quotas(role)) {
                assertThat(usage.headroom())
                        .as("%s: %s uses %d of %d", role, usage.what(), usage.used(), usage.limit())
                        .isGreaterThanOrEqualTo(HEADROOM);
            }
        }
    }

    @Test
    void everyRoleStaysWithinIamQuotasUnderTheLongestStackName() throws Exception {
        // CloudFormation's stack names are at most 128 characters.
        StackTemplate stack = deployed("s" + "-long-stack-name".repeat(8).substring(0, 127));

        stack.roles()
                .keySet()
                .forEach(role -> assertThat(stack.quotas(role)).as(role).noneMatch(IamQuotas.Usage::exceeded));
    }

    @Test
    void theTransformedTemplateKeepsTenPercentOfCloudFormationsQuotas() throws Exception {
        JsonNode template = Json.read(SamTranslatorPeerTest.translated());

        List<int[]> quotas = List.of(
                new int[] {
                    Json.write(template).getBytes(StandardCharsets.UTF_8).length, CloudFormationQuotas.TEMPLATE_BYTES
                },
                new int[] {template.path("Resources").size(), CloudFormationQuotas.RESOURCES},
                new int[] {template.path("Parameters").size(), CloudFormationQuotas.PARAMETERS},
                new int[] {template.path("Outputs").size(), CloudFormationQuotas.OUTPUTS});
        for (int[] quota : quotas) {
            assertThat((double) quota[0] / quota[1]).isLessThanOrEqualTo(1 - HEADROOM);
        }
        assertThat(template.path("Resources").size()).isGreaterThan(100);
    }
}
