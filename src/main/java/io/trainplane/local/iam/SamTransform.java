package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.util.List;
import java.util.Set;

/**
 * The part of the SAM transform (AWS::Serverless-2016-10-31) that decides permissions, done as
 * aws-sam-translator does it: Globals.Function merged into every function, and the execution
 * role SAM generates for a function without {@code Role} and for a state machine without
 * {@code Role}, named {@code <LogicalId>Role}, with the resource's {@code Policies} as inline
 * policies {@code <LogicalId>RolePolicy<N>} (N the entry's index in Policies), policy templates
 * expanded, and managed policies attached
 * (https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-resource-function.html#sam-function-policies).
 * What SAM would add beyond that (event sources, destinations, connectors) is refused.
 */
final class SamTransform {
    static final String TRANSFORM = "AWS::Serverless-2016-10-31";
    /** Event sources for which SAM adds policies to the function's generated role. */
    private static final Set<String> POLICY_EVENTS =
            Set.of("SQS", "Kinesis", "DynamoDB", "MSK", "MQ", "SelfManagedKafka", "DocumentDB");

    private static final JsonNode TEMPLATES =
            ShippedData.json("sam-policy-templates.json").path("Templates");

    private final LocalAccount account;

    SamTransform(LocalAccount account) {
        this.account = account;
    }

    /** The Resources section after the transform: functions with their Globals, generated roles added after their owner. */
    ObjectNode resources(JsonNode template) {
        JsonNode globals = template.path("Globals");
        globals.fieldNames().forEachRemaining(section -> {
            if (!section.equals("Function")) {
                throw new TemplateException("Globals." + section + " is not simulated (only Globals.Function is)");
            }
        });
        ObjectNode out = Json.NODES.objectNode();
        template.path("Resources").properties().forEach(entry -> {
            String id = entry.getKey();
            ObjectNode resource = entry.getValue().deepCopy();
            out.set(id, resource);
            String type = resource.path("Type").asText();
            if (type.equals("AWS::Serverless::Function")) {
                ObjectNode properties = (ObjectNode) merge(globals.path("Function"), resource.path("Properties"));
                resource.set("Properties", properties);
                if (!properties.has("Role")) {
                    out.set(id + "Role", functionRole(id, resource));
                }
            } else if (type.equals("AWS::Serverless::StateMachine")) {
                JsonNode properties = resource.path("Properties");
                if (properties.has("Role") && properties.has("Policies")) {
                    throw new TemplateException(
                            id
                                    + ": Specify either 'Role' or 'Policies' (but not both at the same time) or neither of them");
                }
                if (properties.has("Events")) {
                    throw new TemplateException(
                            id + ": the roles SAM generates for a state machine's Events are not simulated");
                }
                if (!properties.has("Role")) {
                    List<String> managed =
                            properties.path("Tracing").path("Enabled").asBoolean(false)
                                    ? List.of(managedArn("AWSXrayWriteOnlyAccess"))
                                    : List.of();
                    out.set(id + "Role", role(id, resource, "states.amazonaws.com", managed));
                }
            }
        });
        return out;
    }

    private ObjectNode functionRole(String id, JsonNode function) {
        JsonNode properties = function.path("Properties");
        for (String unsupported : List.of(
                "DeadLetterQueue",
                "EventInvokeConfig",
                "DurableConfig",
                "PermissionsBoundary",
                "AssumeRolePolicyDocument")) {
            if (properties.has(unsupported)) {
                throw new TemplateException(id + ": what SAM adds to the generated role for " + unsupported
                        + " is not simulated; give the function a Role");
            }
        }
        properties.path("Events").properties().forEach(event -> {
            if (POLICY_EVENTS.contains(event.getValue().path("Type").asText())) {
                throw new TemplateException(id + ".Events." + event.getKey() + ": the policies SAM adds for "
                        + event.getValue().path("Type").asText()
                        + " event sources are not simulated; give the function a Role");
            }
        });
        List<String> managed =
                new java.util.ArrayList<>(List.of(managedArn("service-role/AWSLambdaBasicExecutionRole")));
        if (properties.has("Tracing") && !properties.get("Tracing").asText().equals("Disabled")) {
            managed.add(managedArn("AWSXrayWriteOnlyAccess"));
        }
        if (properties.has("VpcConfig")) {
            managed.add(managedArn("service-role/AWSLambdaVPCAccessExecutionRole"));
        }
        return role(id, function, "lambda.amazonaws.com", managed);
    }

    private ObjectNode role(String owner, JsonNode resource, String service, List<String> managed) {
        String roleId = owner + "Role";
        ObjectNode role = Json.NODES.objectNode().put("Type", "AWS::IAM::Role");
        if (resource.has("Condition")) {
            role.set("Condition", resource.get("Condition"));
        }
        ObjectNode properties = role.putObject("Properties");
        ObjectNode trust = properties.putObject("AssumeRolePolicyDocument").put("Version", "2012-10-17");
        ObjectNode assume = trust.putArray("Statement").addObject();
        assume.putArray("Action").add("sts:AssumeRole");
        assume.put("Effect", "Allow");
        assume.putObject("Principal").putArray("Service").add(service);
        ArrayNode managedArns = properties.putArray("ManagedPolicyArns");
        managed.forEach(managedArns::add);
        ArrayNode inline = Json.NODES.arrayNode();
        JsonNode policies = resource.path("Properties").path("Policies");
        int index = 0;
        for (JsonNode policy :
                policies.isArray() ? policies : policies.isMissingNode() ? List.<JsonNode>of() : List.of(policies)) {
            String where = owner + ".Policies[" + index + "]";
            String name = roleId + "Policy" + index++;
            if (policy.isTextual() || isIntrinsic(policy) && !policy.has("Fn::If")) {
                JsonNode arn = policy.isTextual() ? Json.NODES.textNode(managedArn(policy.asText(), where)) : policy;
                if (!contains(managedArns, arn)) {
                    managedArns.add(arn);
                }
            } else if (policy.has("Fn::If")) {
                throw new TemplateException(where + ": Fn::If in Policies is not simulated");
            } else if (policy.isObject() && policy.has("Statement")) {
                inline.addObject().put("PolicyName", name).set("PolicyDocument", policy);
            } else if (policy.isObject() && policy.size() == 1) {
                String template = policy.fieldNames().next();
                inline.addObject()
                        .put("PolicyName", name)
                        .set("PolicyDocument", expand(template, policy.get(template), where));
            } else {
                throw new TemplateException(
                        where + ": Policy at index " + (index - 1) + " in the 'Policies' property is not valid");
            }
        }
        if (!inline.isEmpty()) {
            properties.set("Policies", inline);
        }
        return role;
    }

    /** A SAM policy template with its parameters' values put in, as samtranslator's Template.to_statement does. */
    private static JsonNode expand(String name, JsonNode values, String where) {
        JsonNode template = TEMPLATES.get(name);
        if (template == null) {
            throw new TemplateException(
                    where + ": policy template " + name + " is not known to the simulation (it ships "
                            + TEMPLATES.properties().stream()
                                    .map(java.util.Map.Entry::getKey)
                                    .toList()
                            + " from sam-policy-templates.json)");
        }
        template.path("Parameters").fieldNames().forEachRemaining(parameter -> {
            if (!values.has(parameter)) {
                throw new TemplateException(where + ": Following required parameters of template '" + name
                        + "' don't have values: [" + parameter + "]");
            }
        });
        return substitute(template.get("Definition"), template.path("Parameters"), values);
    }

    private static JsonNode substitute(JsonNode node, JsonNode parameters, JsonNode values) {
        if (node.isObject()
                && node.size() == 1
                && node.has("Ref")
                && parameters.has(node.get("Ref").asText())) {
            return values.get(node.get("Ref").asText()).deepCopy();
        }
        if (node.isObject()) {
            ObjectNode out = Json.NODES.objectNode();
            node.properties().forEach(f -> out.set(f.getKey(), substitute(f.getValue(), parameters, values)));
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = Json.NODES.arrayNode();
            node.forEach(item -> out.add(substitute(item, parameters, values)));
            return out;
        }
        return node;
    }

    /** Globals under a resource's own properties: maps merged, lists appended, the resource's scalars winning. */
    static JsonNode merge(JsonNode global, JsonNode local) {
        if (global.isMissingNode()) {
            return local.isMissingNode() ? Json.NODES.objectNode() : local.deepCopy();
        }
        if (local.isMissingNode()) {
            return global.deepCopy();
        }
        if (global.isObject() && local.isObject() && !isIntrinsic(global) && !isIntrinsic(local)) {
            ObjectNode out = global.deepCopy();
            local.properties().forEach(f -> out.set(f.getKey(), merge(global.path(f.getKey()), f.getValue())));
            return out;
        }
        if (global.isArray() && local.isArray()) {
            ArrayNode out = global.deepCopy();
            out.addAll((ArrayNode) local.deepCopy());
            return out;
        }
        return local.deepCopy();
    }

    static boolean isIntrinsic(JsonNode node) {
        if (!node.isObject() || node.size() != 1) {
            return false;
        }
        String key = node.fieldNames().next();
        return key.equals("Ref") || key.equals("Condition") || key.startsWith("Fn::");
    }

    private String managedArn(String name) {
        return "arn:" + account.partition() + ":iam::aws:policy/" + name;
    }

    /** A managed policy given by ARN, or by the name of one the simulation knows (SAM maps names to ARNs). */
    private static String managedArn(String nameOrArn, String where) {
        if (nameOrArn.startsWith("arn:")) {
            return nameOrArn;
        }
        String arn = ShippedData.ManagedPolicies.arnOf(nameOrArn);
        if (arn == null) {
            throw new TemplateException(
                    where + ": managed policy " + nameOrArn + " is not known to the simulation; give its ARN");
        }
        return arn;
    }

    private static boolean contains(ArrayNode array, JsonNode value) {
        for (JsonNode item : array) {
            if (item.equals(value)) {
                return true;
            }
        }
        return false;
    }
}
