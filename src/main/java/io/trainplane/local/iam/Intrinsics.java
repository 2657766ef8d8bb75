package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves CloudFormation's intrinsic functions and conditions for the local account, as
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 * defines them. {@code Ref AWS::NoValue} resolves to a {@link MissingNode}, which removes the
 * property or list item that holds it.
 */
final class Intrinsics {
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

    private final LocalAccount account;
    private final StackParameters parameters;
    private final JsonNode conditions;
    private final JsonNode resources;
    private final ResourceAddresses addresses;
    private final Map<String, Boolean> decided = new HashMap<>();
    private final Set<String> deciding = new HashSet<>();

    Intrinsics(LocalAccount account, StackParameters parameters, JsonNode conditions, JsonNode resources) {
        this.account = account;
        this.parameters = parameters;
        this.conditions = conditions;
        this.resources = resources;
        this.addresses = new ResourceAddresses(this, account);
    }

    /** Whether the resource exists: it has no Condition, or its Condition is true. */
    boolean exists(String logicalId) {
        JsonNode condition = resource(logicalId, logicalId).get("Condition");
        return condition == null || condition(condition.asText(), "Resources." + logicalId + ".Condition");
    }

    String name(String logicalId) {
        return addresses.name(logicalId, resource(logicalId, logicalId));
    }

    /** {@code value} with every intrinsic function resolved. */
    JsonNode resolve(JsonNode value, String where) {
        if (value.isArray()) {
            ArrayNode out = Json.NODES.arrayNode();
            int i = 0;
            for (JsonNode item : value) {
                JsonNode resolved = resolve(item, where + "[" + i++ + "]");
                if (!resolved.isMissingNode()) {
                    out.add(resolved);
                }
            }
            return out;
        }
        if (!value.isObject()) {
            return value;
        }
        if (value.size() == 1 && CfnYaml.FUNCTIONS.contains(value.fieldNames().next())) {
            String function = value.fieldNames().next();
            return call(function, value.get(function), where + "." + function);
        }
        ObjectNode out = Json.NODES.objectNode();
        value.properties().forEach(field -> {
            JsonNode resolved = resolve(field.getValue(), where + "." + field.getKey());
            if (!resolved.isMissingNode()) {
                out.set(field.getKey(), resolved);
            }
        });
        return out;
    }

    /** {@code value} resolved to a string. */
    String text(JsonNode value, String where) {
        JsonNode resolved = resolve(value, where);
        if (!resolved.isValueNode() || resolved.isNull()) {
            throw new TemplateException(where + ": expected a string, got " + resolved);
        }
        return resolved.asText();
    }

    private JsonNode call(String function, JsonNode args, String where) {
        return switch (function) {
            case "Ref" -> ref(args.asText(), where);
            case "Fn::GetAtt" -> {
                JsonNode parts = args.isTextual()
                        ? Json.NODES
                                .arrayNode()
                                .add(args.asText().replaceFirst("\\..*", ""))
                                .add(args.asText().replaceFirst("^[^.]*\\.", ""))
                        : args;
                String logicalId = text(arguments(parts, 2, where).get(0), where);
                String attribute = text(parts.get(1), where);
                yield addresses.getAtt(logicalId, attribute, existing(logicalId, where));
            }
            case "Fn::Sub" -> Json.NODES.textNode(sub(args, where));
            case "Fn::Join" -> {
                String delimiter = text(arguments(args, 2, where).get(0), where);
                JsonNode items = resolve(args.get(1), where);
                if (!items.isArray()) {
                    throw new TemplateException(where + ": the second argument must be a list, got " + items);
                }
                java.util.List<String> texts = new java.util.ArrayList<>();
                items.forEach(item -> texts.add(text(item, where)));
                yield Json.NODES.textNode(String.join(delimiter, texts));
            }
            case "Fn::Select" -> {
                int index = Integer.parseInt(text(arguments(args, 2, where).get(0), where));
                JsonNode list = resolve(args.get(1), where);
                if (!list.isArray() || index < 0 || index >= list.size()) {
                    throw new TemplateException(where + ": index " + index + " is outside " + list);
                }
                yield list.get(index);
            }
            case "Fn::Split" -> {
                String delimiter = text(arguments(args, 2, where).get(0), where);
                ArrayNode parts = Json.NODES.arrayNode();
                for (String part : text(args.get(1), where).split(Pattern.quote(delimiter), -1)) {
                    parts.add(part);
                }
                yield parts;
            }
            case "Fn::If" -> {
                arguments(args, 3, where);
                yield resolve(condition(args.get(0).asText(), where) ? args.get(1) : args.get(2), where);
            }
            default -> throw new TemplateException(where + ": " + function + " is a condition function, not a value");
        };
    }

    private JsonNode ref(String name, String where) {
        switch (name) {
            case "AWS::AccountId":
                return Json.NODES.textNode(account.accountId());
            case "AWS::Region":
                return Json.NODES.textNode(account.region());
            case "AWS::Partition":
                return Json.NODES.textNode(account.partition());
            case "AWS::StackName":
                return Json.NODES.textNode(account.stackName());
            case "AWS::StackId":
                return Json.NODES.textNode(account.stackId());
            case "AWS::URLSuffix":
                return Json.NODES.textNode("amazonaws.com");
            case "AWS::NoValue":
                return MissingNode.getInstance();
            default:
        }
        if (name.startsWith("AWS::")) {
            throw new TemplateException(where + ": the pseudo parameter " + name + " is not simulated");
        }
        JsonNode parameter = parameters.get(name);
        if (parameter != null) {
            return parameter;
        }
        int dot = name.indexOf('.');
        String logicalId = dot < 0 ? name : name.substring(0, dot);
        return addresses.ref(logicalId, dot < 0 ? null : name.substring(dot + 1), existing(logicalId, where));
    }

    /** Fn::Sub, string or [string, variables] form; {@code ${!Literal}} writes {@code ${Literal}}. */
    private String sub(JsonNode args, String where) {
        String template = args.isArray() ? text(arguments(args, 2, where).get(0), where) : args.asText();
        JsonNode variables = args.isArray() ? args.get(1) : Json.NODES.objectNode();
        Matcher m = SUB_VARIABLE.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value;
            if (name.startsWith("!")) {
                value = "${" + name.substring(1) + "}";
            } else if (variables.has(name)) {
                value = text(variables.get(name), where + "." + name);
            } else if (name.contains(".") && !name.startsWith("AWS::") && parameters.get(name) == null) {
                String logicalId = name.substring(0, name.indexOf('.'));
                value = addresses
                        .getAtt(logicalId, name.substring(name.indexOf('.') + 1), existing(logicalId, where))
                        .asText();
            } else {
                value = text(ref(name, where), where + " ${" + name + "}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The value of the named condition of the Conditions section. */
    boolean condition(String name, String where) {
        Boolean known = decided.get(name);
        if (known != null) {
            return known;
        }
        if (!conditions.has(name)) {
            throw new TemplateException(where + ": no condition " + name + " in the Conditions section");
        }
        if (!deciding.add(name)) {
            throw new TemplateException("condition " + name + " depends on itself");
        }
        boolean value = decide(conditions.get(name), "Conditions." + name);
        deciding.remove(name);
        decided.put(name, value);
        return value;
    }

    private boolean decide(JsonNode expression, String where) {
        String function = expression.isObject() && expression.size() == 1
                ? expression.fieldNames().next()
                : "";
        JsonNode args = expression.path(function);
        return switch (function) {
            case "Condition" -> condition(args.asText(), where);
            case "Fn::Equals" -> {
                arguments(args, 2, where);
                yield same(resolve(args.get(0), where), resolve(args.get(1), where));
            }
            case "Fn::Not" -> !decide(arguments(args, 1, where).get(0), where + ".Fn::Not");
            case "Fn::And", "Fn::Or" -> {
                if (!args.isArray() || args.size() < 2 || args.size() > 10) {
                    throw new TemplateException(where + ": " + function + " takes 2 to 10 conditions");
                }
                boolean and = function.equals("Fn::And");
                boolean result = and;
                for (JsonNode item : args) {
                    result = and
                            ? result & decide(item, where + "." + function)
                            : result | decide(item, where + "." + function);
                }
                yield result;
            }
            default ->
                throw new TemplateException(where + ": a condition must be Fn::Equals, Fn::Not, Fn::And, "
                        + "Fn::Or or Condition, not " + expression);
        };
    }

    /** Fn::Equals compares strings; a number in the template equals its text. */
    private static boolean same(JsonNode a, JsonNode b) {
        return a.isValueNode() && b.isValueNode() ? a.asText().equals(b.asText()) : a.equals(b);
    }

    private JsonNode resource(String logicalId, String where) {
        JsonNode resource = resources.get(logicalId);
        if (resource == null) {
            throw new TemplateException(where + ": no parameter or resource " + logicalId + " in the template");
        }
        return resource;
    }

    /** A resource that a Ref or GetAtt names: it must exist, or CloudFormation refuses the stack. */
    private JsonNode existing(String logicalId, String where) {
        JsonNode resource = resource(logicalId, where);
        if (!exists(logicalId)) {
            throw new TemplateException(where + ": refers to " + logicalId + ", whose Condition "
                    + resource.get("Condition").asText() + " is false");
        }
        return resource;
    }

    private static JsonNode arguments(JsonNode args, int count, String where) {
        if (!args.isArray() || args.size() != count) {
            throw new TemplateException(where + ": takes a list of " + count + " arguments, got " + args);
        }
        return args;
    }
}
