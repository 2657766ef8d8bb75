package io.trainplane.local.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.core.Json;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The local account creates a stack's roles only within IAM's quotas, as CloudFormation's create does. */
class IamQuotasTest {
    static final String TRUST =
            "AssumeRolePolicyDocument: {Version: '2012-10-17', Statement: [{Effect: Allow, Principal: {Service: lambda.amazonaws.com}, Action: sts:AssumeRole}]}";

    /** A statement of about 157 characters (white space not counted). */
    static String statements(int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> "{Sid: S" + i + ", Effect: Allow, Action: [s3:GetObject, s3:PutObject],"
                        + " Resource: 'arn:aws:s3:::a-bucket-with-a-rather-long-name-for-the-test/prefix-" + i + "/*'}")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    static StackTemplate parse(String resources) {
        return StackTemplate.parse("Resources:\n" + resources, "test.yaml", LocalAccount.LOCAL, Map.of());
    }

    @Test
    void whiteSpaceIsNotCounted() {
        assertThat(IamQuotas.characters(Json.read("{\"Version\": \"2012-10-17\",\n  \"Statement\": []}")))
                .isEqualTo("{\"Version\":\"2012-10-17\",\"Statement\":[]}".length());
    }

    @Test
    void inlinePoliciesOverTenThousandTwoHundredFortyCharactersTogetherAreRefused() {
        String twoPolicies =
                """
                  Role:
                    Type: AWS::IAM::Role
                    Properties:
                      %s
                      Policies:
                        - {PolicyName: a, PolicyDocument: {Version: '2012-10-17', Statement: %s}}
                        - {PolicyName: b, PolicyDocument: {Version: '2012-10-17', Statement: %s}}
                """;
        StackTemplate within = parse(twoPolicies.formatted(TRUST, statements(25), statements(25)));
        assertThat(within.quotas("Role").getFirst().used()).isBetween(7_000, IamQuotas.ROLE_INLINE_POLICIES);

        assertThatThrownBy(() -> parse(twoPolicies.formatted(TRUST, statements(25), statements(45))))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("Resources.Role: the inline policies take")
                .hasMessageContaining("over IAM's 10240")
                .hasMessageContaining(
                        "LimitExceeded: Maximum policy size of 10240 bytes exceeded for role trainplane-Role")
                .hasMessageContaining("AWS::IAM::ManagedPolicy");
    }

    @Test
    void aManagedPolicyOverSixThousandOneHundredFortyFourCharactersIsRefused() {
        String managed =
                """
                  Policy:
                    Type: AWS::IAM::ManagedPolicy
                    Properties:
                      PolicyDocument: {Version: '2012-10-17', Statement: %s}
                  Role:
                    Type: AWS::IAM::Role
                    Properties:
                      %s
                      ManagedPolicyArns: [!Ref Policy]
                """;
        StackTemplate within = parse(managed.formatted(statements(30), TRUST));
        assertThat(within.roles().get("Role").policies()).singleElement().satisfies(p -> {
            assertThat(p.managedArn()).isEqualTo("arn:aws:iam::000000000000:policy/trainplane-Policy");
            assertThat(p.customerManaged()).isTrue();
            assertThat(p.statements()).hasSize(30);
        });

        assertThatThrownBy(() -> parse(managed.formatted(statements(40), TRUST)))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("Resources.Policy.Properties.PolicyDocument")
                .hasMessageContaining("Cannot exceed quota for PolicySize: 6144");
    }

    @Test
    void moreThanTenManagedPoliciesOnARoleAreRefused() {
        String policies = IntStream.range(0, 11)
                .mapToObj(i -> "  P" + i + ":\n    Type: AWS::IAM::ManagedPolicy\n    Properties:\n"
                        + "      PolicyDocument: {Version: '2012-10-17', Statement: " + statements(1) + "}\n")
                .collect(Collectors.joining());
        String arns = IntStream.range(0, 11).mapToObj(i -> "!Ref P" + i).collect(Collectors.joining(", "));

        assertThatThrownBy(() -> parse(policies + "  Role:\n    Type: AWS::IAM::Role\n    Properties:\n      " + TRUST
                        + "\n      ManagedPolicyArns: [" + arns + "]\n"))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("11 managed policies are attached, over IAM's 10 per role")
                .hasMessageContaining("Cannot exceed quota for PoliciesPerRole: 10");
    }

    @Test
    void aManagedPolicyAttachedFromItsOwnSideIsRefusedAsNotSimulated() {
        assertThatThrownBy(() -> parse(
                        """
                          Role:
                            Type: AWS::IAM::Role
                            Properties:
                              %s
                          Policy:
                            Type: AWS::IAM::ManagedPolicy
                            Properties:
                              Roles: [!Ref Role]
                              PolicyDocument: {Version: '2012-10-17', Statement: []}
                        """
                                .formatted(TRUST)))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining(
                        "Resources.Policy.Properties.Roles: attach the policy through the role's ManagedPolicyArns");
    }

    @Test
    void theStacksRolesAreWithinEveryQuota() {
        StackTemplate stack = StackTemplate.local();
        stack.roles()
                .keySet()
                .forEach(role -> assertThat(stack.quotas(role)).as(role).noneMatch(IamQuotas.Usage::exceeded));
    }
}
