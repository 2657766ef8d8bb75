package io.trainplane.local.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.core.Json;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** IAM's evaluation of identity policies: effects, actions, resources, conditions. */
class PolicyEvaluatorTest {
    static final String BUCKET_OBJECT = "arn:aws:s3:::bucket/key";

    static Role role(String... statements) {
        String document = "{\"Version\": \"2012-10-17\", \"Statement\": [" + String.join(",", statements) + "]}";
        return new Role(
                "R",
                "trainplane-R",
                "arn:aws:iam::000000000000:role/trainplane-R",
                List.of(RolePolicy.inline("R", "p", Json.read(document))));
    }

    static String allow(String action, String resource) {
        return "{\"Effect\": \"Allow\", \"Action\": \"" + action + "\", \"Resource\": \"" + resource + "\"}";
    }

    static Decision decide(Role role, String action, String resource) {
        return role.evaluate(IamRequest.of(action, resource)).decision();
    }

    @Test
    void anExplicitDenyWinsOverEveryAllowAndNamesItsStatement() {
        Role r = role(
                allow("s3:*", "*"),
                "{\"Sid\": \"NoDeletes\", \"Effect\": \"Deny\", \"Action\": \"s3:Delete*\", \"Resource\": \"*\"}",
                allow("s3:DeleteObject", BUCKET_OBJECT));
        assertThat(r.evaluate(IamRequest.of("s3:DeleteObject", BUCKET_OBJECT)))
                .isEqualTo(new Evaluation(Decision.ExplicitlyDenied, "R/p/NoDeletes"));
        assertThat(r.evaluate(IamRequest.of("s3:GetObject", BUCKET_OBJECT)))
                .isEqualTo(new Evaluation(Decision.Allowed, "R/p/0"));
        assertThat(r.evaluate(IamRequest.of("sqs:SendMessage", "*")))
                .isEqualTo(new Evaluation(Decision.ImplicitlyDenied, null));
    }

    @Test
    void theFirstMatchingAllowDecides() {
        Role r = role(allow("s3:PutObject", "*"), allow("s3:GetObject", "*"), allow("s3:Get*", "*"));
        assertThat(r.evaluate(IamRequest.of("s3:GetObject", BUCKET_OBJECT)).statement())
                .isEqualTo("R/p/1");
    }

    @ParameterizedTest(name = "{0} on {1}: {2}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            eks:Describe*       | eks:DescribeCluster   | true
            EKS:describecluster | eks:DescribeCluster   | true
            eks:Describe?luster | eks:DescribeCluster   | true
            eks:Describe?       | eks:DescribeCluster   | false
            eks:*Nodegroup      | eks:CreateNodegroup   | true
            eks:*Nodegroup      | eks:CreateNodegroups  | false
            *                   | iam:PassRole          | true
            ec2:*               | eks:DescribeCluster   | false
            """)
    void actionsMatchWithWildcardsIgnoringCase(String pattern, String action, boolean allowed) {
        assertThat(decide(role(allow(pattern, "*")), action, "*").allowed()).isEqualTo(allowed);
    }

    @ParameterizedTest(name = "{0} on {1}: {2}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            arn:aws:eks:us-east-1:000000000000:cluster/tp-*  | arn:aws:eks:us-east-1:000000000000:cluster/tp-run   | true
            arn:aws:eks:us-east-1:000000000000:cluster/tp-*  | arn:aws:eks:us-east-1:000000000000:cluster/TP-run   | false
            arn:aws:eks:us-east-1:000000000000:cluster/tp-*  | arn:aws:eks:us-east-1:000000000000:nodegroup/tp-run/ng/1 | false
            arn:aws:eks:*:000000000000:cluster/tp-???        | arn:aws:eks:eu-west-1:000000000000:cluster/tp-run   | true
            arn:aws:eks:*:000000000000:cluster/tp-???        | arn:aws:eks:eu-west-1:000000000000:cluster/tp-runs  | false
            arn:aws:eks:us-east-1*:000000000000:cluster/x    | arn:aws:eks:us-east-1:000000000000:cluster/x        | true
            arn:aws:eks:*:cluster/x                          | arn:aws:eks:us-east-1:000000000000:cluster/x        | false
            arn:aws:lambda:us-east-1:000000000000:function:f* | arn:aws:lambda:us-east-1:000000000000:function:f:live | true
            arn:aws:iam::*                                   | arn:aws:iam::000000000000:role/trainplane-R         | true
            arn:aws:iam::000000000000:role/*                 | arn:aws:iam::000000000000:role/svc/R                | true
            arn:aws:eks:*:*:*                                | *                                                   | false
            *                                                | *                                                   | true
            *                                                | arn:aws:s3:::bucket                                 | true
            """)
    void resourcesMatchSegmentBySegment(String pattern, String resource, boolean allowed) {
        assertThat(decide(role(allow("eks:DescribeCluster", pattern)), "eks:DescribeCluster", resource)
                        .allowed())
                .isEqualTo(allowed);
    }

    @Test
    void notActionAndNotResourceApplyToEverythingElse() {
        Role r = role(
                "{\"Effect\": \"Allow\", \"NotAction\": [\"iam:*\", \"sts:*\"], \"Resource\": \"*\"}",
                "{\"Effect\": \"Deny\", \"Action\": \"s3:*\", \"NotResource\": \"arn:aws:s3:::bucket/*\"}");
        assertThat(decide(r, "s3:GetObject", BUCKET_OBJECT)).isEqualTo(Decision.Allowed);
        assertThat(decide(r, "s3:GetObject", "arn:aws:s3:::other/key")).isEqualTo(Decision.ExplicitlyDenied);
        assertThat(decide(r, "iam:PassRole", "arn:aws:iam::000000000000:role/x"))
                .isEqualTo(Decision.ImplicitlyDenied);
    }

    /** {@code k=v;k2=v1,v2} → a request context (aws:TagKeys multivalued, every other key one value). */
    static Map<String, List<String>> context(String text) {
        Map<String, List<String>> context = new LinkedHashMap<>();
        if (text != null) {
            for (String entry : text.split(";")) {
                String[] kv = entry.split("=", 2);
                context.put(kv[0], kv.length < 2 || kv[1].isEmpty() ? List.of() : Arrays.asList(kv[1].split(",")));
            }
        }
        return context;
    }

    @ParameterizedTest(name = "{0} with [{1}]: {2}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            textBlock =
                    """
            {"StringEquals": {"k": "a"}}                           | k=a              | true
            {"StringEquals": {"k": "a"}}                           | k=A              | false
            {"StringEquals": {"k": ["a", "b"]}}                    | k=b              | true
            {"StringEquals": {"k": "a"}}                           | -                | false
            {"StringEquals": {"K": "a"}}                           | k=a              | true
            {"StringNotEquals": {"k": ["a", "b"]}}                 | k=c              | true
            {"StringNotEquals": {"k": ["a", "b"]}}                 | k=b              | false
            {"StringNotEquals": {"k": "a"}}                        | -                | true
            {"StringEqualsIgnoreCase": {"k": "abc"}}               | k=ABC            | true
            {"StringNotEqualsIgnoreCase": {"k": "abc"}}            | k=ABC            | false
            {"StringLike": {"k": "tp-*"}}                          | k=tp-run         | true
            {"StringLike": {"k": "tp-?"}}                          | k=tp-run         | false
            {"StringNotLike": {"k": "tp-*"}}                       | k=other          | true
            {"StringNotLike": {"k": "tp-*"}}                       | -                | true
            {"StringEqualsIfExists": {"k": "a"}}                   | -                | true
            {"StringEqualsIfExists": {"k": "a"}}                   | k=b              | false
            {"StringLike": {"k": "a"}, "StringEquals": {"j": "b"}} | k=a;j=b          | true
            {"StringLike": {"k": "a"}, "StringEquals": {"j": "b"}} | k=a;j=c          | false
            {"StringEquals": {"k": "a", "j": "b"}}                 | k=a              | false
            {"NumericEquals": {"n": "10"}}                         | n=10.0           | true
            {"NumericNotEquals": {"n": "10"}}                      | -                | true
            {"NumericLessThan": {"n": 10}}                         | n=9              | true
            {"NumericLessThan": {"n": 10}}                         | n=10             | false
            {"NumericLessThanEquals": {"n": 10}}                   | n=10             | true
            {"NumericGreaterThan": {"n": 10}}                      | n=11             | true
            {"NumericGreaterThanEquals": {"n": 10}}                | n=9              | false
            {"NumericGreaterThan": {"n": 10}}                      | n=x              | false
            {"DateLessThan": {"d": "2026-01-01T00:00:00Z"}}        | d=2025-12-31T23:59:59Z | true
            {"DateGreaterThan": {"d": "2026-01-01"}}               | d=1767225601     | true
            {"DateEquals": {"d": "2026-01-01T00:00:00Z"}}          | d=2026-01-01T01:00:00+01:00 | true
            {"DateNotEquals": {"d": "2026-01-01"}}                 | -                | true
            {"Bool": {"b": "true"}}                                | b=TRUE           | true
            {"Bool": {"b": true}}                                  | b=false          | false
            {"Bool": {"b": "true"}}                                | -                | false
            {"ArnLike": {"a": "arn:aws:iam::*:role/x-*"}}          | a=arn:aws:iam::000000000000:role/x-1 | true
            {"ArnEquals": {"a": "arn:aws:iam::*:role/x-*"}}        | a=arn:aws:iam::000000000000:role/x-1 | true
            {"ArnLike": {"a": "arn:aws:iam::*:role/x-*"}}          | a=not-an-arn     | false
            {"ArnNotLike": {"a": "arn:aws:iam::*:role/x-*"}}       | a=arn:aws:iam::000000000000:role/y | true
            {"ArnNotEquals": {"a": "arn:aws:iam::*:role/x-*"}}     | -                | true
            {"Null": {"k": "true"}}                                | -                | true
            {"Null": {"k": "true"}}                                | k=a              | false
            {"Null": {"k": "false"}}                               | k=a              | true
            {"Null": {"k": "false"}}                               | -                | false
            {"Null": {"aws:TagKeys": "false"}}                     | aws:TagKeys=     | false
            {"ForAllValues:StringLike": {"aws:TagKeys": "trainplane:*"}} | aws:TagKeys=trainplane:run-id,trainplane:step | true
            {"ForAllValues:StringLike": {"aws:TagKeys": "trainplane:*"}} | aws:TagKeys=trainplane:run-id,owner | false
            {"ForAllValues:StringLike": {"aws:TagKeys": "trainplane:*"}} | -          | true
            {"ForAllValues:StringLike": {"aws:TagKeys": "trainplane:*"}} | aws:TagKeys= | true
            {"ForAllValues:StringNotLike": {"aws:TagKeys": "key1*"}}      | aws:TagKeys=key1:legal | false
            {"ForAllValues:StringNotLike": {"aws:TagKeys": "key1*"}}      | aws:TagKeys=key2:audit | true
            {"ForAnyValue:StringEquals": {"aws:TagKeys": ["a", "b"]}}     | aws:TagKeys=c,b | true
            {"ForAnyValue:StringEquals": {"aws:TagKeys": ["a", "b"]}}     | aws:TagKeys=c,d | false
            {"ForAnyValue:StringEquals": {"aws:TagKeys": "a"}}            | -          | false
            {"ForAnyValue:StringEqualsIfExists": {"aws:TagKeys": "a"}}    | -          | true
            {"ForAllValues:StringEquals": {"k": ["a", "b"]}}              | k=a        | true
            {"StringEquals": {"aws:TagKeys": "a"}}                        | aws:TagKeys=a | false
            {"StringNotEquals": {"aws:TagKeys": "a"}}                     | aws:TagKeys=b | false
            """)
    void conditionsFollowAwsRules(String condition, String context, boolean allowed) {
        Role r = role("{\"Effect\": \"Allow\", \"Action\": \"s3:GetObject\", \"Resource\": \"*\", \"Condition\": "
                + condition + "}");
        assertThat(r.evaluate(new IamRequest("s3:GetObject", BUCKET_OBJECT, context(context)))
                        .decision()
                        .allowed())
                .isEqualTo(allowed);
    }

    /** EKS Pod Identity's session tag confining a pod to its namespace's prefix (template.yaml RunOutputsRole). */
    @ParameterizedTest(name = "{1} as [{2}]: {3}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            textBlock =
                    """
            arn:aws:s3:::b/runs/${aws:PrincipalTag/kubernetes-namespace}/* | arn:aws:s3:::b/runs/tp-a/model.pt | aws:PrincipalTag/kubernetes-namespace=tp-a | true
            arn:aws:s3:::b/runs/${aws:PrincipalTag/kubernetes-namespace}/* | arn:aws:s3:::b/runs/tp-b/model.pt | aws:PrincipalTag/kubernetes-namespace=tp-a | false
            arn:aws:s3:::b/runs/${aws:PrincipalTag/kubernetes-namespace}/* | arn:aws:s3:::b/runs/tp-a/model.pt | aws:principaltag/KUBERNETES-NAMESPACE=tp-a | true
            arn:aws:s3:::b/runs/${aws:PrincipalTag/kubernetes-namespace}/* | arn:aws:s3:::b/runs/tp-a/model.pt | -                                         | false
            arn:aws:s3:::b/runs/${aws:PrincipalTag/kubernetes-namespace}/* | arn:aws:s3:::b/runs/tp-b/model.pt | aws:PrincipalTag/kubernetes-namespace=*  | false
            arn:aws:s3:::b/runs/${aws:PrincipalTag/kubernetes-namespace}/* | arn:aws:s3:::b/runs/*/model.pt    | aws:PrincipalTag/kubernetes-namespace=*  | true
            arn:aws:s3:::b/runs/${aws:PrincipalTag/team, 'shared'}/*       | arn:aws:s3:::b/runs/shared/x       | -                                         | true
            arn:aws:s3:::b/${*}/x                                          | arn:aws:s3:::b/*/x                 | -                                         | true
            arn:aws:s3:::b/${*}/x                                          | arn:aws:s3:::b/y/x                 | -                                         | false
            """)
    void policyVariablesTakeTheRequestsValueAsLiteralText(
            String resource, String requested, String context, boolean allowed) {
        Role r = role(allow("s3:GetObject", resource));
        assertThat(r.evaluate(new IamRequest("s3:GetObject", requested, context("-".equals(context) ? null : context)))
                        .decision()
                        .allowed())
                .isEqualTo(allowed);
    }

    @ParameterizedTest(name = "{0} with [{1}]: {2}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            {"StringLike": {"s3:prefix": "runs/${aws:PrincipalTag/kubernetes-namespace}/*"}}   | s3:prefix=runs/tp-a/code/;aws:PrincipalTag/kubernetes-namespace=tp-a | true
            {"StringLike": {"s3:prefix": "runs/${aws:PrincipalTag/kubernetes-namespace}/*"}}   | s3:prefix=runs/tp-b/code/;aws:PrincipalTag/kubernetes-namespace=tp-a | false
            {"StringLike": {"s3:prefix": "runs/${aws:PrincipalTag/kubernetes-namespace}/*"}}   | s3:prefix=runs/tp-a/code/                                          | false
            {"StringEquals": {"k": "${aws:PrincipalTag/team}"}}                               | k=a*;aws:PrincipalTag/team=a*                                      | true
            {"StringNotEquals": {"k": "${aws:PrincipalTag/team}"}}                            | k=a                                                                | true
            """)
    void policyVariablesInConditionValues(String condition, String context, boolean allowed) {
        Role r = role("{\"Effect\": \"Allow\", \"Action\": \"s3:ListBucket\", \"Resource\": \"*\", \"Condition\": "
                + condition + "}");
        assertThat(r.evaluate(new IamRequest("s3:ListBucket", "arn:aws:s3:::b", context(context)))
                        .decision()
                        .allowed())
                .isEqualTo(allowed);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            {"Effect": "Allow", "Action": "s3:*", "Resource": "*", "Condition": {"IpAddress": {"aws:SourceIp": "10.0.0.0/8"}}} | IpAddress
            {"Effect": "Allow", "Action": "s3:*", "Resource": "*", "Condition": {"StringEqualz": {"k": "a"}}}      | StringEqualz
            {"Effect": "Allow", "Action": "s3:*", "Resource": "*", "Condition": {"NullIfExists": {"k": "true"}}}   | Null takes neither
            {"Effect": "Allow", "Action": "s3:*", "Resource": "*", "Condition": {"NumericLessThan": {"n": "ten"}}} | is not a number
            {"Effect": "Allow", "Action": "s3:${aws:username}", "Resource": "*"}                                 | only Resource and Condition
            {"Effect": "Allow", "Action": "s3:*", "Resource": "arn:aws:s3:::${aws:username/*"}                     | does not close
            {"Effect": "Allow", "Action": "s3:*", "Resource": "*", "Condition": {"StringEquals": {"k": "a${}"}}}   | names no variable
            {"Effect": "Allow", "Action": "s3:*", "Resource": "*", "Principal": "*"}                              | Principal
            {"Effect": "allow", "Action": "s3:*", "Resource": "*"}                                                | Effect must be
            {"Effect": "Allow", "Action": "s3:*", "NotAction": "s3:Get*", "Resource": "*"}                        | exactly one of Action
            {"Effect": "Allow", "Action": "s3:*"}                                                                 | exactly one of Resource
            {"Effect": "Allow", "Action": "s3:*", "Resource": "bucket"}                                           | must be an ARN
            {"Effect": "Allow", "Action": "GetObject", "Resource": "*"}                                           | not service:Action
            {"Effect": "Allow", "Action": [], "Resource": "*"}                                                    | Action is empty
            {"Effect": "Allow", "Action": "s3:*", "Resource": "*", "Condtion": {}}                                | 'Condtion' is not a field
            {"Sid": "A", "Effect": "Allow", "Action": "s3:*", "Resource": "*"}, {"Sid": "A", "Effect": "Deny", "Action": "s3:*", "Resource": "*"} | used twice
            {"Sid": "no-dashes", "Effect": "Allow", "Action": "s3:*", "Resource": "*"}                            | only letters and digits
            {"Sid": "1", "Effect": "Allow", "Action": "s3:*", "Resource": "*"}, {"Effect": "Deny", "Action": "s3:*", "Resource": "*"} | same statement id
            """)
    void policiesIamOrTheSimulationCannotTakeAreRefusedWhenLoaded(String statements, String message) {
        assertThatThrownBy(() -> role(statements))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("R/p")
                .hasMessageContaining(message);
    }

    @Test
    void aDocumentNeedsStatementsAndAKnownVersion() {
        assertThatThrownBy(() -> RolePolicy.inline("R", "p", Json.read("{\"Version\": \"2012-10-17\"}")))
                .hasMessageContaining("no Statement");
        assertThatThrownBy(() ->
                        RolePolicy.inline("R", "p", Json.read("{\"Version\": \"2020-01-01\", \"Statement\": []}")))
                .hasMessageContaining("Version");
        Role single = new Role(
                "R",
                "r",
                "arn",
                List.of(
                        RolePolicy.inline(
                                "R",
                                "p",
                                Json.read(
                                        "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"s3:GetObject\", \"Resource\": \"*\"}}"))));
        assertThat(single.evaluate(IamRequest.of("s3:GetObject", BUCKET_OBJECT)))
                .isEqualTo(new Evaluation(Decision.Allowed, "R/p/0"));
    }
}
