package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
            return desired.has("LaunchTemplateData") ? null
                    : new Rejection(HandlerErrorCode.INVALID_REQUEST, "Model validation failed (#: required key [LaunchTemplateData] not found)");
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
                    spec.path("Tags").forEach(t -> tags.put(t.path("Key").asText(), t.path("Value").asText()));
                }
            }
            return tags;
        }
    },
    PLACEMENT_GROUP("AWS::EC2::PlacementGroup", "GroupName", "ec2:placement-group/") {
        private static final Set<String> STRATEGIES = Set.of("cluster", "spread", "partition");

        @Override
        Rejection validate(ObjectNode desired) {
            JsonNode strategy = desired.get("Strategy");
            return strategy == null || STRATEGIES.contains(strategy.asText()) ? null
                    : new Rejection(HandlerErrorCode.INVALID_REQUEST,
                            "Model validation failed (#/Strategy: " + strategy.asText() + " is not a valid enum value)");
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
            desired.path("Tags").forEach(t -> tags.put(t.path("Key").asText(), t.path("Value").asText()));
            return tags;
        }
    };

    /** Why a create request fails (it is accepted first, then fails, as Cloud Control reports it). */
    record Rejection(HandlerErrorCode code, String message) {}

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
