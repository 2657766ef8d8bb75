package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.cloudcontrol.model.HandlerErrorCode;

/**
 * The resource types the simulated Cloud Control API provisions, as their CloudFormation schemas
 * define them: primary identifier, required and allowed values, where tags live, and the
 * inventory's name for them.
 */
enum CloudControlTypes {
    LAUNCH_TEMPLATE("AWS::EC2::LaunchTemplate", "LaunchTemplateName", "ec2:launch-template/") {
        @Override
        Rejection validate(ObjectNode desired) {
            JsonNode data = desired.get("LaunchTemplateData");
            if (data == null) {
                return CloudControlSchemas.invalid("", "required key [LaunchTemplateData] not found");
            }
            JsonNode metadata = data.get("MetadataOptions");
            return metadata == null ? null : metadataOptions(metadata);
        }

        @Override
        String identifier(ObjectNode properties, SimulatedIds ids) {
            String id = ids.next("lt-", 17);
            properties.put("LaunchTemplateId", id);
            if (!properties.hasNonNull("LaunchTemplateName")) {
                properties.put("LaunchTemplateName", "LaunchTemplate_" + id.substring(3));
            }
            properties.put("DefaultVersionNumber", "1");
            properties.put("LatestVersionNumber", "1");
            return id;
        }

        @Override
        Map<String, String> tags(JsonNode desired) {
            Map<String, String> tags = new TreeMap<>();
            for (JsonNode spec : desired.path("TagSpecifications")) {
                if ("launch-template".equals(spec.path("ResourceType").asText())) {
                    spec.path("Tags")
                            .forEach(t -> tags.put(
                                    t.path("Key").asText(), t.path("Value").asText()));
                }
            }
            return tags;
        }
    },
    /**
     * AWS::Logs::LogGroup: the properties of its schema
     * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-logs-loggroup.html),
     * the name's pattern, the retentions CloudWatch Logs takes
     * (https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutRetentionPolicy.html)
     * and at most 50 tags
     * (https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_TagResource.html).
     * Its primary identifier is the name (the inventory: {@code logs:log-group//aws/eks/…}).
     */
    LOG_GROUP("AWS::Logs::LogGroup", "LogGroupName", "logs:log-group/") {
        private static final Set<String> PROPERTIES = Set.of(
                "LogGroupName",
                "RetentionInDays",
                "Tags",
                "KmsKeyId",
                "DataProtectionPolicy",
                "LogGroupClass",
                "FieldIndexPolicies",
                "ResourcePolicyDocument",
                "DeletionProtectionEnabled",
                "BearerTokenAuthenticationEnabled");
        private static final Pattern NAME = Pattern.compile("[.\\-_/#A-Za-z0-9]{1,512}");
        private static final Set<Integer> RETENTION_DAYS = Set.of(
                1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288,
                3653);

        @Override
        Rejection validate(ObjectNode desired) {
            Rejection keys = CloudControlSchemas.onlyKeys(desired, "", PROPERTIES);
            if (keys != null) {
                return keys;
            }
            JsonNode name = desired.get("LogGroupName");
            if (name != null
                    && !(name.isTextual() && NAME.matcher(name.asText()).matches())) {
                return CloudControlSchemas.invalid(
                        "/LogGroupName", "string " + name + " does not match pattern " + NAME.pattern());
            }
            JsonNode retention = desired.get("RetentionInDays");
            if (retention != null && !(retention.isIntegralNumber() && RETENTION_DAYS.contains(retention.asInt()))) {
                return CloudControlSchemas.invalid("/RetentionInDays", retention + " is not a valid enum value");
            }
            return CloudControlSchemas.tags(desired.get("Tags"), "/Tags", 50);
        }

        @Override
        String identifier(ObjectNode properties, SimulatedIds ids) {
            if (!properties.hasNonNull("LogGroupName")) {
                properties.put("LogGroupName", "LogGroup-" + ids.next("", 12));
            }
            String name = properties.get("LogGroupName").asText();
            properties.put(
                    "Arn",
                    "arn:aws:logs:" + AwsService.REGION + ":" + AwsService.ACCOUNT + ":log-group:" + name + ":*");
            return name;
        }

        @Override
        Map<String, String> tags(JsonNode desired) {
            Map<String, String> tags = new TreeMap<>();
            desired.path("Tags")
                    .forEach(t ->
                            tags.put(t.path("Key").asText(), t.path("Value").asText()));
            return tags;
        }
    },
    PLACEMENT_GROUP("AWS::EC2::PlacementGroup", "GroupName", "ec2:placement-group/") {
        private static final Set<String> STRATEGIES = Set.of("cluster", "spread", "partition");

        @Override
        Rejection validate(ObjectNode desired) {
            JsonNode strategy = desired.get("Strategy");
            return strategy == null || STRATEGIES.contains(strategy.asText())
                    ? null
                    : new Rejection(
                            HandlerErrorCode.INVALID_REQUEST,
                            "Model validation failed (#/Strategy: " + strategy.asText()
                                    + " is not a valid enum value)");
        }

        @Override
        String identifier(ObjectNode properties, SimulatedIds ids) {
            if (!properties.hasNonNull("GroupName")) {
                properties.put("GroupName", ids.next("pg-", 17));
            }
            return properties.get("GroupName").asText();
        }

        @Override
        Map<String, String> tags(JsonNode desired) {
            Map<String, String> tags = new TreeMap<>();
            desired.path("Tags")
                    .forEach(t ->
                            tags.put(t.path("Key").asText(), t.path("Value").asText()));
            return tags;
        }
    };

    /** Why a create request fails (it is accepted first, then fails, as Cloud Control reports it). */
    record Rejection(HandlerErrorCode code, String message) {}

    /**
     * A launch template's MetadataOptions, as the schema lists them, with the hop limit's range
     * from EC2 ("Possible values: Integers from 1 to 64",
     * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_LaunchTemplateInstanceMetadataOptionsRequest.html).
     */
    static Rejection metadataOptions(JsonNode options) {
        String path = "/LaunchTemplateData/MetadataOptions";
        Set<String> onOff = Set.of("enabled", "disabled");
        return CloudControlSchemas.first(
                CloudControlSchemas.onlyKeys(
                        options,
                        path,
                        Set.of(
                                "HttpEndpoint",
                                "HttpTokens",
                                "HttpPutResponseHopLimit",
                                "HttpProtocolIpv6",
                                "InstanceMetadataTags")),
                CloudControlSchemas.oneOf(options, path, "HttpTokens", Set.of("optional", "required")),
                CloudControlSchemas.oneOf(options, path, "HttpEndpoint", onOff),
                CloudControlSchemas.oneOf(options, path, "HttpProtocolIpv6", onOff),
                CloudControlSchemas.oneOf(options, path, "InstanceMetadataTags", onOff),
                CloudControlSchemas.integerIn(options, path, "HttpPutResponseHopLimit", 1, 64));
    }

    private final String typeName;
    private final String nameProperty;
    private final String inventoryPrefix;

    CloudControlTypes(String typeName, String nameProperty, String inventoryPrefix) {
        this.typeName = typeName;
        this.nameProperty = nameProperty;
        this.inventoryPrefix = inventoryPrefix;
    }

    String typeName() {
        return typeName;
    }

    /** The property whose value must be unique among live resources of the type. */
    String nameProperty() {
        return nameProperty;
    }

    String ref(String identifier) {
        return inventoryPrefix + identifier;
    }

    abstract Rejection validate(ObjectNode desired);

    /** Completes the resource's read-only properties and returns its primary identifier. */
    abstract String identifier(ObjectNode properties, SimulatedIds ids);

    abstract Map<String, String> tags(JsonNode desired);

    static CloudControlTypes byName(String typeName) {
        for (CloudControlTypes type : values()) {
            if (type.typeName.equals(typeName)) {
                return type;
            }
        }
        return null;
    }

    static List<String> names() {
        return Arrays.stream(values()).map(CloudControlTypes::typeName).toList();
    }
}
