package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.core.Json;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.HandlerErrorCode;
import software.amazon.awssdk.services.cloudcontrol.model.OperationStatus;
import software.amazon.awssdk.services.cloudcontrol.model.ProgressEvent;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;

/**
 * AWS::Logs::LogGroup in the simulated Cloud Control, its schema checked; launch templates'
 * metadata options; and what the simulated EKS does with control-plane logs and public CIDRs.
 */
class SimulatedLogGroupsTest {
    static final String LOG_GROUP = "AWS::Logs::LogGroup";

    final SimAccount sim = new SimAccount();

    ProgressEvent create(String type, String desiredState) {
        ProgressEvent accepted = sim.cloudControl
                .createResource(CreateResourceRequest.builder()
                        .typeName(type)
                        .desiredState(desiredState)
                        .build())
                .progressEvent();
        sim.advance(SimulatedCloudControl.OPERATION);
        return sim.cloudControl
                .getResourceRequestStatus(r -> r.requestToken(accepted.requestToken()))
                .progressEvent();
    }

    static String logGroup(String name, Object retention, String tags) {
        return "{\"LogGroupName\": \"%s\", \"RetentionInDays\": %s, \"Tags\": %s}".formatted(name, retention, tags);
    }

    @Test
    void aLogGroupIsIdentifiedByItsNameAndCarriesItsTagsAndRetention() {
        ProgressEvent done = create(
                LOG_GROUP,
                logGroup(
                        "/aws/eks/tp-run-1-eks/cluster",
                        30,
                        "[{\"Key\": \"trainplane:run-id\", \"Value\": \"run-1\"}, {\"Key\": \"trainplane:stack\", \"Value\": \"ml\"}]"));

        assertThat(done.operationStatus()).isEqualTo(OperationStatus.SUCCESS);
        assertThat(done.identifier()).isEqualTo("/aws/eks/tp-run-1-eks/cluster");
        var properties = Json.read(sim.cloudControl
                .getResource(r -> r.typeName(LOG_GROUP).identifier(done.identifier()))
                .resourceDescription()
                .properties());
        assertThat(properties.path("RetentionInDays").asInt()).isEqualTo(30);
        assertThat(properties.path("Arn").asText())
                .isEqualTo("arn:aws:logs:us-east-1:000000000000:log-group:/aws/eks/tp-run-1-eks/cluster:*");
        assertThat(sim.cloudControl.resources()).singleElement().satisfies(r -> {
            assertThat(r.ref()).isEqualTo("logs:log-group//aws/eks/tp-run-1-eks/cluster");
            assertThat(r.runId()).isEqualTo("run-1");
            assertThat(r.stack()).isEqualTo("ml");
        });
        assertThat(create(LOG_GROUP, logGroup("/aws/eks/tp-run-1-eks/cluster", 30, "[]"))
                        .errorCode())
                .isEqualTo(HandlerErrorCode.ALREADY_EXISTS);
    }

    @Test
    void whatTheLogGroupSchemaRefusesFailsTheRequest() {
        String tags = "[]";
        assertThat(create(LOG_GROUP, logGroup("/aws/eks/x/cluster", 31, tags)).statusMessage())
                .contains("#/RetentionInDays");
        assertThat(create(LOG_GROUP, logGroup("/aws/eks/x/cluster", "\"30\"", tags))
                        .statusMessage())
                .contains("#/RetentionInDays");
        assertThat(create(LOG_GROUP, logGroup("/aws/eks/x y/cluster", 30, tags)).statusMessage())
                .contains("#/LogGroupName");
        assertThat(create(LOG_GROUP, "{\"LogGroupName\": \"a\", \"Retention\": 30}")
                        .statusMessage())
                .contains("extraneous key [Retention]");
        String tooMany = IntStream.range(0, 51)
                .mapToObj(i -> "{\"Key\": \"k" + i + "\", \"Value\": \"v\"}")
                .collect(Collectors.joining(",", "[", "]"));
        assertThat(create(LOG_GROUP, logGroup("/aws/eks/a/cluster", 30, tooMany))
                        .statusMessage())
                .contains("maximum item count: 50");
        assertThat(create(LOG_GROUP, logGroup("/aws/eks/b/cluster", 30, "[{\"Key\": \"aws:x\", \"Value\": \"v\"}]"))
                        .statusMessage())
                .contains("#/Tags/0/Key");
        assertThat(create(LOG_GROUP, logGroup("/aws/eks/c/cluster", 30, "[{\"Key\": \"k\"}]"))
                        .errorCode())
                .isEqualTo(HandlerErrorCode.INVALID_REQUEST);
        assertThat(sim.cloudControl.resources()).isEmpty();
    }

    @Test
    void launchTemplateMetadataOptionsAreChecked() {
        String template = "{\"LaunchTemplateName\": \"%s\", \"LaunchTemplateData\": {\"MetadataOptions\": %s}}";
        assertThat(create(
                                "AWS::EC2::LaunchTemplate",
                                template.formatted(
                                        "ok",
                                        "{\"HttpEndpoint\": \"enabled\", \"HttpTokens\": \"required\", \"HttpPutResponseHopLimit\": 1}"))
                        .operationStatus())
                .isEqualTo(OperationStatus.SUCCESS);
        assertThat(create("AWS::EC2::LaunchTemplate", template.formatted("hop0", "{\"HttpPutResponseHopLimit\": 0}"))
                        .statusMessage())
                .contains("HttpPutResponseHopLimit", "between 1 and 64");
        assertThat(create("AWS::EC2::LaunchTemplate", template.formatted("hop65", "{\"HttpPutResponseHopLimit\": 65}"))
                        .errorCode())
                .isEqualTo(HandlerErrorCode.INVALID_REQUEST);
        assertThat(create("AWS::EC2::LaunchTemplate", template.formatted("tokens", "{\"HttpTokens\": \"mandatory\"}"))
                        .statusMessage())
                .contains("#/LaunchTemplateData/MetadataOptions/HttpTokens");
        assertThat(create("AWS::EC2::LaunchTemplate", template.formatted("extra", "{\"HopLimit\": 1}"))
                        .statusMessage())
                .contains("extraneous key [HopLimit]");
    }

    @Test
    void eksMakesAMissingControlPlaneLogGroupItselfUntaggedAndUsesAnExistingOne() {
        sim.eks.deliverControlPlaneLogsTo(sim.cloudControl::controlPlaneLogsDelivered);
        create(
                LOG_GROUP,
                logGroup(
                        "/aws/eks/tp-first-eks/cluster",
                        7,
                        "[{\"Key\": \"trainplane:run-id\", \"Value\": \"first\"}]"));

        sim.eks.createCluster(SimAccount.cluster("tp-first-eks", "t1", "first"));
        sim.eks.createCluster(SimAccount.cluster("tp-second-eks", "t2", "second"));
        sim.eks.createCluster(SimAccount.cluster("tp-quiet-eks", "t3", "quiet").toBuilder()
                .logging((l) -> {})
                .build());

        Map<String, Map<String, String>> groups = sim.cloudControl.resources().stream()
                .collect(Collectors.toMap(CloudResource::ref, CloudResource::tags));
        assertThat(groups)
                .containsOnlyKeys(
                        "logs:log-group//aws/eks/tp-first-eks/cluster",
                        "logs:log-group//aws/eks/tp-second-eks/cluster");
        assertThat(groups.get("logs:log-group//aws/eks/tp-first-eks/cluster"))
                .containsEntry("trainplane:run-id", "first");
        assertThat(groups.get("logs:log-group//aws/eks/tp-second-eks/cluster"))
                .isEmpty(); // EKS's own: no tags, no retention
        var made = Json.read(sim.cloudControl
                .getResource(r -> r.typeName(LOG_GROUP).identifier("/aws/eks/tp-second-eks/cluster"))
                .resourceDescription()
                .properties());
        assertThat(made.has("RetentionInDays")).isFalse();
    }

    @Test
    void eksRefusesPublicAccessCidrsItDoesNotTake() {
        var narrowed = SimAccount.cluster("tp-narrow-eks", "t1", "narrow").toBuilder()
                .resourcesVpcConfig(v -> v.subnetIds(SimAccount.SUBNETS).publicAccessCidrs("203.0.113.0/24"))
                .build();
        sim.eks.createCluster(narrowed);

        var privateRange = narrowed.toBuilder()
                .name("tp-private-eks")
                .resourcesVpcConfig(
                        v -> v.subnetIds(SimAccount.SUBNETS).publicAccessCidrs("203.0.113.0/24", "10.0.0.0/8"))
                .build();
        assertThatThrownBy(() -> sim.eks.createCluster(privateRange))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("The following CIDRs are invalid in publicAccessCidrs: [10.0.0.0/8]");
        List<String> many =
                IntStream.range(0, 41).mapToObj(i -> "52.94." + i + ".0/24").toList();
        var tooMany = narrowed.toBuilder()
                .name("tp-many-eks")
                .resourcesVpcConfig(v -> v.subnetIds(SimAccount.SUBNETS).publicAccessCidrs(many))
                .build();
        assertThatThrownBy(() -> sim.eks.createCluster(tooMany))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("at most 40");
        assertThat(sim.eks.resources()).extracting(CloudResource::ref).containsExactly("eks:cluster/tp-narrow-eks");
    }
}
